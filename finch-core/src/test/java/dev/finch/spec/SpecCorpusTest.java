package dev.finch.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.forth.CoForth;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.vocab.Overload;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.lisp.Lisp;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.word.Library;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The spec corpus ({@link SpecCase}): every case runs through the public pipeline twice, with every function
 * interpreted and again with every function compiled, and must meet its expectations both times (so the tiers agree
 * on it). {@link #everyOverloadOfEveryCoreWordHasACase} derives the coverage from the vocabulary itself: an overload
 * that no Co-Forth case calls, or no Lisp case where Lisp can call it, fails the build, so a word without its corpus
 * cases is unfinished.
 */
class SpecCorpusTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The child agents of agents.spec: any role adds two and three; role "long" needs three turns. */
    private static final String SCRIPT = """
            ## role long
            >>> program forth
            "a" say
            >>> program forth
            "b" say
            >>> final
            done
            ## role *
            >>> program forth
            2 3 + int-to-string say
            >>> final
            {{output}}
            """;
    /** The child agents every corpus case's Finch runs (the image law over the corpus uses them too). */
    static final dev.finch.agent.AgentOptions AGENTS = dev.finch.agent.AgentOptions.of(
            new dev.finch.agent.AgentProfile("script", "scripted", dev.finch.agent.ScriptedProvider.parse(SCRIPT)));
    /** The schedule policy every corpus case's Finch defines, on a timer that never moves: nothing scheduled runs. */
    static Finch.Builder schedules(Finch.Builder b) {
        return b.schedulePolicy(dev.finch.schedule.SchedulePolicy.named("spec"))
                .scheduleTimer(new dev.finch.schedule.ManualScheduleTimer(java.time.Instant.parse("2026-12-07T10:00:00Z")));
    }
    private static final Finch INTERPRETED = schedules(Finch.builder()).tier(Finch.Tier.INTERPRETED).timeout(dev.finch.HangGuard.LIMIT).agents(AGENTS).build();
    private static final Finch COMPILED = schedules(Finch.builder()).tier(Finch.Tier.COMPILED).timeout(dev.finch.HangGuard.LIMIT).agents(AGENTS).build();
    private static final Finch APART = schedules(Finch.builder()).tier(Finch.Tier.COMPILED_APART).timeout(dev.finch.HangGuard.LIMIT).agents(AGENTS).build();
    private static final List<Path> WORKSPACES = new ArrayList<>();

    @AfterAll static void removeWorkspaces() throws IOException {
        for (Path ws : WORKSPACES) {
            try (Stream<Path> all = Files.walk(ws)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    /** Every case interpreted, compiled, and compiled with each word in a class of its own (every call crossing classes). */
    @TestFactory
    Stream<DynamicTest> everyCaseInBothTiers() {
        return SpecCase.all().stream().flatMap(c -> Stream.of(
                dynamicTest("interpreted " + c.name(), () -> check(INTERPRETED, c)),
                dynamicTest("compiled " + c.name(), () -> check(COMPILED, c)),
                dynamicTest("compiled apart " + c.name(), () -> check(APART, c))));
    }

    private static void check(Finch finch, SpecCase c) throws IOException {
        SessionOptions options = SessionOptions.DEFAULT;
        if (!c.files().isEmpty()) {
            Path ws = Files.createTempDirectory("finch-spec");
            WORKSPACES.add(ws);
            for (var f : c.files().entrySet()) {
                Path target = ws.resolve(f.getKey());
                Files.createDirectories(target.getParent());
                Files.write(target, f.getValue());
            }
            options = options.withWorkspace(ws);
        }
        for (String g : c.grants()) options = options.withGrant(g);
        Session session = finch.newSession(options);
        Language language = c.language().equals("lisp") ? Language.LISP : Language.FORTH;
        // A join of a CPU task still computing pauses the run; the corpus waits for the task, as `finch run` does.
        Outcome o = session.awaitTasks(session.submit(Submission.of(c.source(), c.file() + ":" + c.line()).withLanguage(language)));
        String what = c.name() + " → " + dev.finch.FinchJson.write(o);
        if (c.error().isPresent()) {
            assertThat(o).as(what).isInstanceOf(Outcome.Failed.class);
            assertThat(o.diagnostics()).as(what).extracting(Diagnostic::code).contains(c.error().get());
            return;
        }
        if (c.suspended().isPresent()) {
            assertThat(o).as(what).isInstanceOf(Outcome.Suspended.class);
            if (c.suspended().get().equals("yield")) assertThat(o.requiredCapabilities()).as(what).isEmpty();
            else assertThat(o.requiredCapabilities()).as(what).contains(c.suspended().get());
            return;
        }
        assertThat(o).as(what).isInstanceOf(Outcome.Completed.class);
        String stack = o.stack().isEmpty() ? "(empty)" : o.stack().stream().map(StackEntry::display).collect(Collectors.joining(" | "));
        if (c.stack().isPresent()) assertThat(stack).as(what).isEqualTo(c.stack().get());
        else assertThat(stack).as(what + " (a case stating only its output leaves no stack)").isEqualTo("(empty)");
        if (c.output().isPresent()) assertThat(o.output()).as(what).isEqualTo(JSON.readValue(c.output().get(), String.class));
        if (c.events().isPresent()) {
            // The outcome's events, as its JSON writes them.
            assertThat(dev.finch.vm.persist.OutputEventJson.encode(o.events()).toString()).as(what).isEqualTo(JSON.readTree(c.events().get()).toString());
        }
        if (c.types().isPresent()) {
            assertThat(o.stack().stream().map(StackEntry::type).collect(Collectors.joining(" | "))).as(what).isEqualTo(c.types().get());
        }
    }

    @Test
    void everyCaseParsesAndVerifiesItsWords() {
        List<SpecCase> all = SpecCase.all();
        assertThat(all).as("the corpus").hasSizeGreaterThan(100);
        for (SpecCase c : all) {
            if (c.error().isEmpty()) assertThat(overloadsCalled(c)).as("%s verifies and calls a word", c.name()).isNotEmpty();
        }
    }

    @Test
    void everyOverloadOfEveryCoreWordHasACase() {
        Set<String> forth = new TreeSet<>();
        Set<String> lisp = new TreeSet<>();
        for (SpecCase c : SpecCase.all()) (c.language().equals("lisp") ? lisp : forth).addAll(overloadsCalled(c));
        List<String> missing = new ArrayList<>();
        for (WordSpec w : Library.core().vocabulary().words()) {
            for (Overload o : w.overloads()) {
                if (!forth.contains(o.id())) missing.add("Co-Forth: " + w.name() + " [" + o.id() + "] " + o.signature());
                if (!lisp.contains(o.id()) && lispCanCall(w, o)) missing.add("Lisp: " + w.name() + " [" + o.id() + "] " + o.signature());
            }
        }
        assertThat(missing).as("overloads without a spec case in src/test/resources/spec, in each frontend that can call them").isEmpty();
    }

    /**
     * Whether a Lisp program can call the overload: not one that leaves several values (a Lisp call leaves one or
     * none, so dup, swap, over, rot and tuck are Co-Forth's), not a word Lisp writes as a form of its own that
     * short-circuits (and, or), not step-spawn (no Lisp form; µNorman's par and workflow use it), nor step-join,
     * which needs the handle only step-spawn makes.
     */
    private static boolean lispCanCall(WordSpec w, Overload o) {
        if (o.signature().outs().size() > 1) return false;
        if (w.typing() == dev.finch.ir.vocab.Typing.STEP_SPAWN) return false;
        return !Set.of("and", "or", "step-join").contains(w.name());
    }

    /** The overload ids a case's verified program calls or quotes (empty when it does not verify). */
    static Set<String> overloadsCalled(SpecCase c) {
        Environment env = Environment.of(Library.core().vocabulary());
        Lowering l = c.language().equals("lisp") ? new Lisp().lower(c.source(), "spec", env) : new CoForth().lower(c.source(), "spec", env);
        Set<String> out = new TreeSet<>();
        if (!l.ok()) return out;
        Verification v = Verifier.verify(l.module().orElseThrow(), env);
        if (!v.ok()) return out;
        Checked.CheckedModule m = v.module().orElseThrow();
        walk(m.main().body(), out);
        for (Checked.CheckedWord w : m.words()) walk(w.body(), out);
        return out;
    }

    private static void walk(Checked.CheckedBlock b, Set<String> out) {
        for (Checked.Node n : b.nodes()) {
            if (n instanceof Checked.CallNode call && call.target() instanceof Checked.Target.Builtin t) out.add(t.overload());
            if (n instanceof Checked.QuoteNode q && q.target() instanceof Checked.Target.Builtin t) out.add(t.overload());
            if (n instanceof Checked.ClosureNode cl) walk(cl.body().body(), out);
            for (Checked.CheckedBlock child : Checked.children(n)) walk(child, out);
        }
    }
}
