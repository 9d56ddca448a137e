package dev.finch.capabilities;

import dev.finch.ir.cap.Capability;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GrantSetTest {

    private static Grant grant(String id, String spec, Scope scope) { return Grant.of(id, spec, scope).value(); }

    private static Capability cap(String text) { return Capability.parse(text).orElseThrow(); }

    private static GrantSet set(Grant... grants) { return GrantSet.of(List.of(grants)).value(); }

    @Test
    void emptySetPermitsNothingAndReportsTheMissingSubset() {
        assertThat(GrantSet.EMPTY.permits(cap("session.emit"))).isFalse();
        Attempt<GrantUse> use = GrantSet.EMPTY.use(cap("fs.read(${workspace}/notes/n.txt)"));
        assertThat(use.refusal().orElseThrow().code()).isEqualTo("E-CAP-014");
        assertThat(use.refusal().orElseThrow().expected()).contains("fs.read(${workspace}/notes/n.txt)");
    }

    @Test
    void permitsByContainmentPerKind() {
        GrantSet g = set(
                grant("r", "fs.read(${workspace}/notes/**)", Scope.SESSION),
                grant("w", "file.write(${workspace}/out/*.csv)", Scope.TASK),
                grant("p", "process.run(/usr/bin/git)", Scope.PROJECT),
                grant("e", "session.emit", Scope.GLOBAL),
                grant("m", "memory.read(tree=session,path=notes/**)", Scope.SESSION),
                grant("a", "agent.spawn(max_depth=2,max_children=4)", Scope.TASK),
                grant("s", "schedule.create(policy=daily-report)", Scope.TASK),
                grant("l", "program.invoke(language=python)", Scope.TASK),
                grant("c", "mcp.call(github,*)", Scope.TASK));
        assertThat(g.permits(cap("fs.read(${workspace}/notes/n.txt)"))).isTrue();
        assertThat(g.permits(cap("file.read(${workspace}/notes/a/b.md)"))).isTrue();
        assertThat(g.permits(cap("fs.read(${workspace}/other.txt)"))).isFalse();
        assertThat(g.permits(cap("fs.write(${workspace}/notes/n.txt)"))).as("read never implies write").isFalse();
        assertThat(g.permits(cap("fs.read(${workspace}/out/r.csv)"))).as("write never implies read").isFalse();
        assertThat(g.permits(cap("fs.write(${workspace}/out/r.csv)"))).isTrue();
        assertThat(g.permits(cap("fs.write(${workspace}/out/sub/r.csv)"))).isFalse();
        assertThat(g.permits(cap("fs.read(${project}/notes/n.txt)"))).as("another root").isFalse();
        assertThat(g.permits(cap("process.run(/usr/bin/git)"))).isTrue();
        assertThat(g.permits(cap("process.run(/usr/bin/gitk)"))).isFalse();
        assertThat(g.permits(cap("process.run(/usr/bin/*)"))).isFalse();
        assertThat(g.permits(cap("session.emit"))).isTrue();
        assertThat(g.permits(cap("memory.read(tree=session,path=notes/today)"))).isTrue();
        assertThat(g.permits(cap("memory.read(tree=project,path=notes/today)"))).isFalse();
        assertThat(g.permits(cap("memory.read(tree=session,path=secrets/k)"))).isFalse();
        assertThat(g.permits(cap("agent.spawn(max_depth=2,max_children=4)"))).isTrue();
        assertThat(g.permits(cap("agent.spawn(max_depth=1,max_children=0)"))).isTrue();
        assertThat(g.permits(cap("agent.spawn(max_depth=3,max_children=1)"))).isFalse();
        assertThat(g.permits(cap("agent.spawn(max_depth=1,max_children=5)"))).isFalse();
        assertThat(g.permits(cap("schedule.create(policy=daily-report)"))).isTrue();
        assertThat(g.permits(cap("schedule.create(policy=*)"))).isFalse();
        assertThat(g.permits(cap("program.invoke(language=\"python\")"))).isTrue();
        assertThat(g.permits(cap("program.invoke(language=bash)"))).isFalse();
        assertThat(g.permits(cap("mcp.call(github,create_issue)"))).isTrue();
        assertThat(g.permits(cap("mcp.call(gitlab,create_issue)"))).isFalse();
        assertThat(g.permits(cap("net.fetch(x)"))).as("unknown kinds are never permitted").isFalse();
        assertThat(g.missing(List.of(cap("session.emit"), cap("fs.read(${workspace}/x)"), cap("process.run(/bin/sh)"))))
                .containsExactly(cap("fs.read(${workspace}/x)"), cap("process.run(/bin/sh)"));
    }

    @Test
    void wildcardGrantsCoverWildcardRequirementsOnlyWhenProvable() {
        GrantSet g = set(grant("p", "process.run(**)", Scope.TASK), grant("l", "program.invoke(language=*)", Scope.TASK),
                grant("c", "mcp.call(*,*)", Scope.TASK), grant("m", "memory.read(tree=*,path=**)", Scope.TASK));
        assertThat(g.permits(cap("process.run(/opt/x/bin/tool)"))).isTrue();
        assertThat(g.permits(cap("program.invoke(language=*)"))).isTrue();
        assertThat(g.permits(cap("mcp.call(a,b)"))).isTrue();
        assertThat(g.permits(cap("memory.read(tree=x,path=**)"))).isTrue();
    }

    @Test
    void addRefusesDuplicateIdsAndBadIds() {
        GrantSet g = set(grant("g1", "session.emit", Scope.TASK));
        assertThat(g.add(grant("g1", "fs.read(${workspace}/**)", Scope.TASK)).refusal().orElseThrow().code()).isEqualTo("E-CAP-012");
        assertThat(GrantSet.of(List.of(grant("x", "session.emit", Scope.ONCE), grant("x", "session.emit", Scope.TASK))).isOk()).isFalse();
        assertThat(Grant.of("bad id", "session.emit", Scope.TASK).refusal().orElseThrow().code()).isEqualTo("E-CAP-018");
        assertThat(Grant.of("", "session.emit", Scope.TASK).refusal().orElseThrow().code()).isEqualTo("E-CAP-018");
        assertThat(Grant.of("ok", "nonsense(", Scope.TASK).refusal().orElseThrow().code()).isEqualTo("E-CAP-001");
        assertThat(g.size()).as("the original set is unchanged").isEqualTo(1);
    }

    @Test
    void revocationRemovesExactlyThatGrantAndIsImmutable() {
        GrantSet g = set(grant("a", "fs.read(${workspace}/**)", Scope.SESSION), grant("b", "session.emit", Scope.SESSION));
        GrantSet after = g.revoke("a").value();
        assertThat(after.permits(cap("fs.read(${workspace}/x)"))).isFalse();
        assertThat(after.permits(cap("session.emit"))).isTrue();
        assertThat(g.permits(cap("fs.read(${workspace}/x)"))).as("old set unchanged").isTrue();
        assertThat(after.revoke("a").refusal().orElseThrow().code()).isEqualTo("E-CAP-013");
        assertThat(after.get("b")).isPresent();
        assertThat(after.get("a")).isEmpty();
    }

    @Test
    void onceGrantIsConsumedOnUseAndLastingGrantsArePreferred() {
        GrantSet g = set(grant("once", "fs.read(${workspace}/notes/n.txt)", Scope.ONCE));
        Capability req = cap("fs.read(${workspace}/notes/n.txt)");
        Attempt<GrantUse> first = g.use(req);
        assertThat(first.value().grant().id()).isEqualTo("once");
        assertThat(first.value().remaining().isEmpty()).isTrue();
        assertThat(first.value().remaining().use(req).refusal().orElseThrow().code()).isEqualTo("E-CAP-014");
        assertThat(g.permits(req)).as("the old set still holds it: immutability").isTrue();

        GrantSet both = set(grant("once", "fs.read(${workspace}/notes/n.txt)", Scope.ONCE),
                grant("task", "fs.read(${workspace}/notes/**)", Scope.TASK));
        GrantUse u = both.use(req).value();
        assertThat(u.grant().id()).isEqualTo("task");
        assertThat(u.remaining()).isEqualTo(both);

        GrantSet lasting = set(grant("t", "session.emit", Scope.TASK));
        assertThat(lasting.use(cap("session.emit")).value().remaining()).isSameAs(lasting);
    }

    @Test
    void useOfAMalformedRequirementIsRefused() {
        GrantSet g = set(grant("a", "fs.read(${workspace}/**)", Scope.GLOBAL));
        assertThat(g.use(cap("fs.read(${workspace}/../etc)")).refusal().orElseThrow().code()).isEqualTo("E-CAP-005");
        assertThat(g.permits(cap("fs.read(${workspace}/../etc)"))).isFalse();
    }

    @Test
    void expiryDropsTheEndedScopeAndNarrowerOnes() {
        GrantSet g = set(grant("o", "session.emit", Scope.ONCE), grant("t", "session.emit", Scope.TASK),
                grant("s", "session.emit", Scope.SESSION), grant("p", "session.emit", Scope.PROJECT),
                grant("g", "session.emit", Scope.GLOBAL));
        assertThat(ids(g.expire(Scope.TASK))).containsExactly("s", "p", "g");
        assertThat(ids(g.expire(Scope.SESSION))).containsExactly("p", "g");
        assertThat(ids(g.expire(Scope.PROJECT))).containsExactly("g");
        assertThat(ids(g.expire(Scope.GLOBAL))).isEmpty();
    }

    @Test
    void attenuationAcceptsAContainedSubset() {
        GrantSet parent = set(grant("r", "fs.read(${workspace}/**)", Scope.SESSION),
                grant("a", "agent.spawn(max_depth=2,max_children=4)", Scope.TASK),
                grant("m", "mcp.call(github,*)", Scope.TASK));
        GrantSet child = set(grant("c1", "fs.read(${workspace}/src/**)", Scope.TASK),
                grant("c2", "agent.spawn(max_depth=1,max_children=4)", Scope.ONCE),
                grant("c3", "mcp.call(github,list_issues)", Scope.TASK));
        assertThat(parent.attenuate(child).value()).isSameAs(child);
        assertThat(parent.attenuate(GrantSet.EMPTY).value().isEmpty()).isTrue();
    }

    @Test
    void attenuationRefusesEveryGrantThatExceedsTheParent() {
        GrantSet parent = set(grant("r", "fs.read(${workspace}/src/**)", Scope.TASK),
                grant("o", "fs.write(${workspace}/out/**)", Scope.ONCE),
                grant("a", "agent.spawn(max_depth=2,max_children=4)", Scope.TASK));
        GrantSet child = set(grant("wider", "fs.read(${workspace}/**)", Scope.TASK),
                grant("longer", "fs.read(${workspace}/src/a)", Scope.SESSION),
                grant("fromOnce", "fs.write(${workspace}/out/x)", Scope.ONCE),
                grant("deeper", "agent.spawn(max_depth=3,max_children=1)", Scope.TASK),
                grant("kind", "fs.write(${workspace}/src/a)", Scope.TASK),
                grant("root", "fs.read(${project}/src/a)", Scope.TASK),
                grant("fine", "fs.read(${workspace}/src/a)", Scope.TASK));
        Attempt<GrantSet> a = parent.attenuate(child);
        assertThat(a.isOk()).isFalse();
        assertThat(a.refusals()).hasSize(6).allSatisfy(d -> assertThat(d.code()).isEqualTo("E-CAP-015"));
        assertThat(a.refusals()).extracting(d -> d.message().split("'")[1])
                .containsExactly("wider", "longer", "fromOnce", "deeper", "kind", "root");
    }

    @Test
    void grantPrintsItsParts() {
        Grant g = grant("g7", "file.read(${workspace}/src/**)", Scope.PROJECT);
        assertThat(g.toString()).isEqualTo("g7: fs.read(${workspace}/src/**) (project)");
        assertThat(Scope.bySpelling("once")).contains(Scope.ONCE);
        assertThat(Scope.bySpelling("forever")).isEmpty();
        assertThat(set(g).capabilities()).containsExactly(cap("fs.read(${workspace}/src/**)"));
    }

    private static List<String> ids(GrantSet s) { return s.grants().stream().map(Grant::id).toList(); }
}
