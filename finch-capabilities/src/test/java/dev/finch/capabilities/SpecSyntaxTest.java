package dev.finch.capabilities;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class SpecSyntaxTest {

    private static CapabilitySpec spec(String text) {
        Attempt<CapabilitySpec> a = CapabilitySpec.parse(text);
        assertThat(a.refusals()).as(text).isEmpty();
        return a.value();
    }

    private static String code(String text) {
        Attempt<CapabilitySpec> a = CapabilitySpec.parse(text);
        assertThat(a.isOk()).as("expected a refusal for " + text).isFalse();
        return a.refusal().orElseThrow().code();
    }

    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource(delimiter = '|', value = {
            "fs.read(${workspace}/src/**)                 | fs.read(${workspace}/src/**)                 | FS_READ",
            "file.read(${workspace}/src/**)               | fs.read(${workspace}/src/**)                 | FS_READ",
            "fs.write(${workspace}/generated/**)          | fs.write(${workspace}/generated/**)          | FS_WRITE",
            "file.write(${task.output}/r.csv)             | fs.write(${task.output}/r.csv)               | FS_WRITE",
            "fs.read(${host-machine}/etc/hosts)           | fs.read(${host-machine}/etc/hosts)           | FS_READ",
            "fs.read(${project})                          | fs.read(${project})                          | FS_READ",
            "fs.read(${workspace}/**/**/x)                | fs.read(${workspace}/**/x)                   | FS_READ",
            "fs.read( ${workspace}/a b/c )                | fs.read(${workspace}/a b/c)                  | FS_READ",
            "process.run(/usr/bin/git)                    | process.run(/usr/bin/git)                    | PROCESS_RUN",
            "process.run(**)                              | process.run(**)                              | PROCESS_RUN",
            "process.run(/**)                             | process.run(**)                              | PROCESS_RUN",
            "process.run(/usr/bin/*)                      | process.run(/usr/bin/*)                      | PROCESS_RUN",
            "session.emit                                 | session.emit                                 | SESSION_EMIT",
            "memory.read(tree=session,path=**)            | memory.read(tree=session,path=**)            | MEMORY_READ",
            "memory.write(tree=project,path=notes/**)     | memory.write(tree=project,path=notes/**)     | MEMORY_WRITE",
            "memory.read(path=notes/*,tree=*)             | memory.read(tree=*,path=notes/*)             | MEMORY_READ",
            "agent.spawn(max_depth=2,max_children=4)      | agent.spawn(max_depth=2,max_children=4)      | AGENT_SPAWN",
            "agent.spawn(max_children=4, max_depth=0)     | agent.spawn(max_depth=0,max_children=4)      | AGENT_SPAWN",
            "schedule.create(policy=daily-report)         | schedule.create(policy=daily-report)         | SCHEDULE_CREATE",
            "schedule.create(policy=*)                    | schedule.create(policy=*)                    | SCHEDULE_CREATE",
            "program.invoke(language=python)              | program.invoke(language=python)              | PROGRAM_INVOKE",
            "program.invoke(language=\"python\")          | program.invoke(language=python)              | PROGRAM_INVOKE",
            "program.invoke(language=*)                   | program.invoke(language=*)                   | PROGRAM_INVOKE",
            "mcp.call(github,create_issue)                | mcp.call(github,create_issue)                | MCP_CALL",
            "mcp.call(github,*)                           | mcp.call(github,*)                           | MCP_CALL",
            "mcp.call(*,*)                                | mcp.call(*,*)                                | MCP_CALL",
            "model.ask(claude)                            | model.ask(claude)                            | MODEL_ASK",
            "model.ask(*)                                 | model.ask(*)                                 | MODEL_ASK",
            "tool.call(py,exec)                           | tool.call(py,exec)                           | TOOL_CALL",
            "tool.call(py,*)                              | tool.call(py,*)                              | TOOL_CALL",
            "desktop.automate(click)                      | desktop.automate(click)                      | DESKTOP_AUTOMATE",
            "desktop.automate( type )                     | desktop.automate(type)                       | DESKTOP_AUTOMATE",
            "desktop.automate(*)                          | desktop.automate(*)                          | DESKTOP_AUTOMATE",
    })
    void parsesAndPrintsCanonically(String input, String canonical, CapabilityKind kind) {
        CapabilitySpec s = spec(input);
        assertThat(s.kind()).isEqualTo(kind);
        assertThat(s.toString()).isEqualTo(canonical);
        assertThat(s.toCapability()).isEqualTo(Capability.parse(canonical).orElseThrow());
        // The canonical spelling is a fixed point and reads back as an equal spec.
        assertThat(spec(canonical)).isEqualTo(s);
        assertThat(CapabilitySpec.of(s.toCapability()).value()).isEqualTo(s);
    }

    @Test
    void typedFieldsAreExposed() {
        CapabilitySpec.AgentSpawn a = (CapabilitySpec.AgentSpawn) spec("agent.spawn(max_depth=2,max_children=4)");
        assertThat(a.maxDepth()).isEqualTo(2);
        assertThat(a.maxChildren()).isEqualTo(4);
        CapabilitySpec.FsRead r = (CapabilitySpec.FsRead) spec("fs.read(${workspace}/src/**)");
        assertThat(r.path().root()).isEqualTo(Root.WORKSPACE);
        assertThat(r.path().segments().segments()).containsExactly("src", "**");
        CapabilitySpec.McpCall m = (CapabilitySpec.McpCall) spec("mcp.call(github,*)");
        assertThat(m.server().name()).isEqualTo("github");
        assertThat(m.tool().isAny()).isTrue();
        CapabilitySpec.MemoryRead mr = (CapabilitySpec.MemoryRead) spec("memory.read(tree=session,path=**)");
        assertThat(mr.tree().name()).isEqualTo("session");
        assertThat(mr.path().segments()).containsExactly("**");
    }

    @ParameterizedTest(name = "{0} is refused with {1}")
    @CsvSource(delimiter = '|', value = {
            "fs.read(                                      | E-CAP-001",
            "FS.READ(${workspace}/x)                      | E-CAP-001",
            "fs.read(${workspace}/x                       | E-CAP-001",
            "fs.read(${workspace}/x,)                     | E-CAP-001",
            "net.fetch(https://x)                         | E-CAP-002",
            "file.exec(${workspace}/x)                    | E-CAP-002",
            "fs.read                                      | E-CAP-003",
            "fs.read(${workspace}/a,${workspace}/b)       | E-CAP-003",
            "session.emit(x)                              | E-CAP-003",
            "process.run(git)                             | E-CAP-003",
            "process.run(/)                               | E-CAP-007",
            "process.run(/usr/../bin/sh)                  | E-CAP-005",
            "memory.read(tree=session)                    | E-CAP-003",
            "memory.read(tree=session,path=**,extra=1)    | E-CAP-003",
            "memory.read(tree=session,tree=x,path=**)     | E-CAP-003",
            "memory.read(tree=s*,path=**)                 | E-CAP-003",
            "memory.read(tree=session,path=../x)          | E-CAP-005",
            "agent.spawn(max_depth=-1,max_children=4)     | E-CAP-003",
            "agent.spawn(max_depth=02,max_children=4)     | E-CAP-003",
            "agent.spawn(max_depth=1000000,max_children=4)| E-CAP-003",
            "agent.spawn(max_depth=two,max_children=4)    | E-CAP-003",
            "agent.spawn(max_depth=2)                     | E-CAP-003",
            "schedule.create(daily)                       | E-CAP-003",
            "schedule.create(policy=)                     | E-CAP-003",
            "program.invoke(language=py*)                 | E-CAP-003",
            "program.invoke(language=\"*\")               | E-CAP-003",
            "mcp.call(github)                             | E-CAP-003",
            "mcp.call(git hub,x)                          | E-CAP-003",
            "tool.call(py)                                | E-CAP-003",
            "desktop.automate(clik)                       | E-CAP-003",
            "desktop.automate(click,type)                 | E-CAP-003",
            "desktop.automate                             | E-CAP-003",
            "desktop.automate(cl*)                        | E-CAP-003",
            "fs.read(/etc/passwd)                         | E-CAP-006",
            "fs.read(~/x)                                 | E-CAP-004",
            "fs.read(${home}/x)                           | E-CAP-004",
            "fs.read(${workspace}x)                       | E-CAP-004",
            "fs.read(src/**)                              | E-CAP-004",
            "fs.read(${workspace}/../x)                   | E-CAP-005",
            "fs.read(${workspace}/src/../../x)            | E-CAP-005",
            "fs.write(${workspace}//x)                    | E-CAP-007",
            "fs.write(${workspace}/)                      | E-CAP-007",
            "fs.write(${workspace}/./x)                   | E-CAP-008",
            "fs.read(${workspace}/a**)                    | E-CAP-010",
            "fs.read(${workspace}/***)                    | E-CAP-010",
    })
    void refusesMalformedSpecs(String input, String expectedCode) {
        assertThat(code(input)).isEqualTo(expectedCode);
    }

    @Test
    void refusalsAreStructuredWithOriginAndPhase() {
        Origin o = Origin.of("cli:--grant", 1, 9);
        Attempt<CapabilitySpec> a = CapabilitySpec.parse("fs.read(${workspace}/../x)", o);
        assertThat(a.refusals()).hasSize(1);
        assertThat(a.refusals().get(0).origin()).isEqualTo(o);
        assertThat(a.refusals().get(0).phase()).isEqualTo(Phase.HOST);
        assertThat(a.refusals().get(0).found()).isEqualTo("../x");
        assertThat(a.toOptional()).isEmpty();
    }

    @Test
    void nulInsideASpecIsRefusedNotThrown() {
        assertThat(code("fs.read(${workspace}/a\u0000b)")).isEqualTo("E-CAP-009");
    }

    @Test
    void aliasesFromTheIrArePrintedCanonically() {
        Capability alias = Capability.of("file.write", "${workspace}/out/**");
        assertThat(CapabilitySpec.of(alias).value().toString()).isEqualTo("fs.write(${workspace}/out/**)");
    }

    @Test
    void oneAutomationOperationConfersNoOther() {
        assertThat(spec("desktop.automate(*)").contains(spec("desktop.automate(click)"))).isTrue();
        assertThat(spec("desktop.automate(click)").contains(spec("desktop.automate(click)"))).isTrue();
        assertThat(spec("desktop.automate(windows)").contains(spec("desktop.automate(click)"))).isFalse();
        assertThat(spec("desktop.automate(click)").contains(spec("desktop.automate(type)"))).isFalse();
        assertThat(spec("desktop.automate(click)").contains(spec("desktop.automate(*)"))).isFalse();
        assertThat(spec("desktop.automate(*)").contains(spec("process.run(**)"))).isFalse();
    }
}
