package dev.finch;

import dev.finch.host.ScheduleCode;
import dev.finch.host.words.ScheduleWords;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.print.CoForthPrinter;
import dev.finch.ir.type.Type;
import dev.finch.vm.engine.CompiledWord;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.boundary.HostFailure;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A defined word taken apart from its session, so that a schedule can call it when the session is gone (issue 39): the
 * word's definition and every definition it reaches, with the constants they read, as one canonical Co-Forth program
 * that defines them and calls the word — each definition the Co-Forth {@code inspect_word} shows, which Co-Forth
 * rebuilds to the same IR, whatever language defined it. The words come from the creating run's dictionary: the
 * session's committed words and the run's own. The program is verified in a new session before it is kept, so a word
 * that does not stand on its own is refused when it is scheduled ({@code E-SCHEDULE-008}), not when it runs.
 */
final class ScheduledWord {
    private ScheduledWord() { }

    /** One definition reached: its verified body, and whether the creating run's own program made it. */
    private record Def(String name, Type.Fn signature, CheckedWord checked, boolean inRun) { }

    /**
     * The program that defines {@code name} and what it reaches and calls it on an empty stack, taken from
     * {@code state}'s dictionary and {@code run}'s words (null: none); {@code constants} are the values the run holds.
     */
    static String program(Session session, VmState state, CheckedModule run, String name, Map<String, Object> constants) throws HostFailure {
        Map<String, CheckedWord> runWords = new LinkedHashMap<>();
        if (run != null) for (CheckedWord w : run.words()) runWords.put(w.name(), w);
        Def root = find(state, runWords, name, true);
        if (root == null) {
            throw new HostFailure(ScheduleCode.UNKNOWN_WORD, "no word named \"" + abbreviate(name) + "\" is defined in this session"
                    + (state.constants().containsKey(name) || constants.containsKey(name) ? " (it is a constant)" : ""));
        }
        if (!root.signature().ins().isEmpty()) {
            throw new HostFailure(ScheduleCode.WORD_TAKES_INPUTS, "\"" + abbreviate(name) + "\" takes inputs (" + root.signature()
                    + "); a scheduled word is called on an empty stack");
        }
        Map<String, Def> reached = new LinkedHashMap<>();
        Set<String> read = new LinkedHashSet<>();
        reached.put(name, root);
        ArrayDeque<Def> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            Def d = todo.poll();
            Set<String> calls = new LinkedHashSet<>();
            names(d.checked(), calls, read);
            if (!d.inRun()) {
                Optional<String> stale = session.history().redefinedSince(d.name(), calls);
                if (stale.isPresent()) {
                    throw notKept(name, "\"" + abbreviate(d.name()) + "\" links to a version of \"" + abbreviate(stale.get()) + "\" that was redefined since");
                }
            }
            for (String n : calls) {
                Def callee = find(state, runWords, n, d.inRun());
                if (callee == null) throw notKept(name, "\"" + abbreviate(n) + "\" is no longer defined");
                Def seen = reached.get(n);
                if (seen == null) {
                    reached.put(n, callee);
                    todo.add(callee);
                } else if (seen.inRun() != callee.inRun()) {
                    throw notKept(name, "it reaches two versions of \"" + abbreviate(n) + "\" (one this program redefines)");
                }
            }
        }
        StringBuilder text = new StringBuilder();
        List<Def> defs = new ArrayList<>(reached.values());
        java.util.Collections.reverse(defs);
        for (Def d : defs) text.append(Discovery.coForth(d.name(), d.signature(), d.checked())).append('\n');
        for (String c : read) text.append(literal(name, c, constants.get(c))).append(" constant ").append(c).append('\n');
        text.append(name).append('\n');
        String program = text.toString();
        int bytes = program.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > ScheduleWords.MAX_PROGRAM_BYTES) {
            throw new HostFailure(ScheduleCode.BAD_PROGRAM, "\"" + abbreviate(name) + "\" and the definitions it reaches come to " + bytes
                    + " bytes of Co-Forth; at most " + ScheduleWords.MAX_PROGRAM_BYTES);
        }
        verify(session, name, program);
        return program;
    }

    /** The definition {@code name} as a word of the run's program sees it ({@code inRun}) or as the dictionary has it; null: none. */
    private static Def find(VmState state, Map<String, CheckedWord> runWords, String name, boolean inRun) throws HostFailure {
        CheckedWord own = inRun ? runWords.get(name) : null;
        if (own != null) return new Def(name, own.signature(), own, true);
        CompiledWord w = state.words().get(name);
        if (w == null) return null;
        CheckedWord checked;
        try {
            checked = w.checked();
        } catch (CompiledWord.Unavailable e) {
            throw notKept(name, "its definition could not be rebuilt: " + e.diagnostic().message());
        }
        if (checked == null) throw notKept(name, "the session holds no source of \"" + abbreviate(name) + "\"");
        return new Def(name, w.signature(), checked, false);
    }

    /** The dictionary words {@code word} calls or quotes, and the constants it reads, its closures' included. */
    private static void names(CheckedWord word, Set<String> calls, Set<String> constants) {
        ArrayDeque<Checked.CheckedBlock> todo = new ArrayDeque<>(List.of(word.body()));
        while (!todo.isEmpty()) {
            for (Checked.Node node : todo.poll().nodes()) {
                switch (node.kind()) {
                    case CALL -> target(((Checked.CallNode) node).target(), word.name(), calls, constants);
                    case QUOTE -> target(((Checked.QuoteNode) node).target(), word.name(), calls, constants);
                    case CLOSURE -> todo.add(((Checked.ClosureNode) node).body().body());
                    case IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD -> todo.addAll(Checked.children(node));
                    case PUSH, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> { }
                }
            }
        }
    }

    private static void target(Checked.Target t, String self, Set<String> calls, Set<String> constants) {
        switch (t.kind()) {
            case WORD -> {
                if (!t.name().equals(self)) calls.add(t.name());
            }
            case CONSTANT_REF -> constants.add(t.name());
            case BUILTIN -> { }
        }
    }

    /** A constant's value as a Co-Forth literal: an int, a float, a string or a bool; refused otherwise. */
    private static String literal(String word, String constant, Object value) throws HostFailure {
        Literal l;
        if (value instanceof Long v) l = new Literal.IntLit(v);
        else if (value instanceof Double v) l = new Literal.FloatLit(v);
        else if (value instanceof String v) l = new Literal.StringLit(v);
        else if (value instanceof Boolean v) l = new Literal.BoolLit(v);
        else throw notKept(word, "it reads the constant \"" + abbreviate(constant) + "\", whose value is not an int, float, string or bool");
        return CoForthPrinter.literal(l);
    }

    /** Refuses the program when it does not verify in a new session, as a scheduled run's would. */
    private static void verify(Session session, String name, String program) throws HostFailure {
        Session fresh = session.finch().newSession();
        try {
            CheckResult r = fresh.check(Submission.of(program, "schedule:" + name).withLanguage(Language.FORTH));
            if (!r.ok()) {
                String why = r.diagnostics().isEmpty() ? "it does not verify" : r.diagnostics().get(0).code() + " " + r.diagnostics().get(0).message();
                throw notKept(name, "its definitions do not verify in a new session (" + why + ")");
            }
        } finally {
            fresh.close();
        }
    }

    private static HostFailure notKept(String word, String why) {
        return new HostFailure(ScheduleCode.WORD_NOT_KEPT, "\"" + abbreviate(word) + "\" cannot be scheduled by name: " + why
                + "; schedule its program text instead");
    }

    private static String abbreviate(String s) { return s.length() <= 60 ? s : s.substring(0, 60) + "…"; }
}
