package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The REPL driven through piped standard input (a dumb terminal): every test ends at end of input, never hangs. */
@Timeout(60)
class ReplTest {
    @TempDir
    Path dir;

    private static ConformanceTest.Run repl(String script, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("repl", "--no-history"));
        args.addAll(List.of(extra));
        return ConformanceTest.invoke(args, script);
    }

    @Test
    void multiLineEntriesRunWhenCompleteAndTheSessionPersists() {
        ConformanceTest.Run r = repl(String.join("\n",
                ": sq ( int -- int )",
                "  dup * ;",
                "7 sq",
                "(define (greet [n : string])",
                "  (say (string-append \"hi \" n)))",
                "(greet \"bo\")",
                ":quit", ""));
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains(ReplCommand.CONTINUATION + "  dup * ;");
        assertThat(r.out()).contains("stack:  49 : int");
        assertThat(r.out()).contains("hi bo\n");
        // The open definition did not run on its first line: no verify or parse error appeared.
        assertThat(r.out()).doesNotContain("error[");
    }

    /** Issue 20: the REPL takes --provider too; a child agent answers from a script, and the await waits for it. */
    @Test
    void aChildAgentAnswersFromAScriptInTheRepl() throws java.io.IOException {
        Path script = java.nio.file.Files.writeString(dir.resolve("c.script"), ">>> program forth\n6 7 * int-to-string say\n>>> final\nit is {{output}}\n");
        ConformanceTest.Run r = repl(String.join("\n",
                "\"compute\" agent-spawn agent-await \"final-message\" record-get unwrap",
                ":quit", ""), "--provider", "script:" + script, "--grant", "agent.spawn(max_depth=1,max_children=1)");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("\"it is 42\" : string");
    }

    /** Issue 21, item 4: the REPL shows output handles as plain lines, each on a line of its own; say text unchanged. */
    @Test
    void outputHandlesAreShownAsPlainLines() {
        ConformanceTest.Run r = repl(String.join("\n",
                "\"half\" say \"load\" output-open dup 1 2 output-progress dup \"loaded\" output-replace output-close \"end\\n\" say",
                ":quit", ""));
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("half\n[load] open\n[load] 1/2\n[load] loaded\n[load] closed\nend\n");
    }

    /** Issue 15, item 2: a join of a CPU task still computing pauses the run; the REPL waits for it and goes on. */
    @Test
    void aJoinOfARunningCpuTaskIsWaitedFor() {
        ConformanceTest.Run r = repl(String.join("\n",
                "[: ( -- int ) 0 begin dup 3000000 < while 1 + repeat ;] defer-cpu task-join 1 +",
                "(task-join (defer :cpu (lambda () (* 6 7))))",
                ":quit", ""));
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("stack:  3000001 : int").contains("stack:  3000001 : int  42 : int");
        assertThat(r.out()).doesNotContain("suspended");
    }

    @Test
    void discoveryCommandsSeeTheSessionsDefinitions() {
        ConformanceTest.Run r = repl(String.join("\n",
                ": inc ( int -- int ) 1 + ;",
                "41 inc",
                ":inspect inc",
                ":inspect while",
                ":search inc",
                ":state",
                ":vocabulary",
                ":language",
                ":inspect nope-nope",
                ":frobnicate",
                ":help", ""));
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("inc : int -> int\n  definition of this session\n  : inc ( int -- int ) 1 + ;");
        assertThat(r.out()).contains("forth: begin test while body repeat").contains("no runtime signature");
        assertThat(r.out()).contains("inc : int -> int   [definition]");
        assertThat(r.out()).contains("vm_revision 2, manifest_generation 1").contains("  42 : int");
        assertThat(r.out()).contains("definitions (this session)\n  inc : int -> int");
        assertThat(r.out()).contains("## Co-Forth");
        assertThat(r.out()).contains("'nope-nope' is no core word");
        assertThat(r.out()).contains("unknown command :frobnicate");
        assertThat(r.out()).contains(":inspect WORD");
    }

    @Test
    void errorsAreShownWithCaretsAndCommitNothing() {
        ConformanceTest.Run r = repl("5\n\"x\" 1 +\n:state\n");
        assertThat(r.out()).contains("error[E-VERIFY-").contains("^");
        assertThat(r.out()).contains("vm_revision 1,");
    }

    @Test
    void endOfInputFlushesAnOpenEntryAsOneProgram() {
        ConformanceTest.Run r = repl(": half ( int -- int ) 2 /\n");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("error[E-FORTH-");
    }

    @Test
    void aCapabilityRequestAsksThePerson() throws IOException {
        Files.writeString(dir.resolve("n.txt"), "note");
        String read = "\"n.txt\" path file-read bytes-to-string if-ok say else say then";
        ConformanceTest.Run r = repl(String.join("\n",
                read, "maybe", "o",           // an unclear answer is asked again; once
                read, "n",                    // asked again (once covered one request): no
                read, "s",                    // for the session
                read,                         // not asked any more
                ":quit", ""), "--workspace", dir.toString());
        assertThat(r.exit()).isZero();
        String out = r.out();
        assertThat(out.split("allow fs\\.read\\(\\$\\{workspace}/n\\.txt\\)\\? \\[o]nce/\\[s]ession/\\[p]roject/\\[a]lways/\\[n]o", -1)).hasSize(5);
        assertThat(out).contains("answer o (once), s (this session), p (this project, remembered), a (always, remembered) or n (no)");
        assertThat(out).contains("error[E-HOST-001]");
        assertThat(out.split("note\n", -1)).hasSize(4);
    }

    /** Issue 37: a project approval is remembered in the state directory, so the next REPL of the project does not ask. */
    @Test
    void aProjectApprovalIsNotAskedForAgainInTheNextSessionOfTheProject() throws IOException {
        Files.writeString(dir.resolve("n.txt"), "note");
        Path state = Files.createDirectories(dir.resolve("state"));
        String read = "\"n.txt\" path file-read bytes-to-string if-ok say else say then";
        String ask = "allow fs.read(${workspace}/n.txt)?";
        ConformanceTest.Run first = repl(String.join("\n", read, "p", ":quit", ""), "--workspace", dir.toString(), "--state", state.toString());
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains(ask).contains("note");
        ConformanceTest.Run second = repl(String.join("\n", read, ":quit", ""), "--workspace", dir.toString(), "--state", state.toString());
        assertThat(second.out()).doesNotContain(ask).contains("note");
        // Another project is asked; so is a REPL that keeps no state.
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("n.txt"), "other");
        ConformanceTest.Run elsewhere = repl(String.join("\n", read, "n", ":quit", ""), "--workspace", other.toString(), "--state", state.toString());
        assertThat(elsewhere.out()).contains("allow fs.read(${workspace}/n.txt)?");
        ConformanceTest.Run stateless = repl(String.join("\n", read, "n", ":quit", ""), "--workspace", dir.toString(), "--no-state");
        assertThat(stateless.out()).contains(ask);
    }

    /** Issue 35 item 7: the approval prompt shows what it approves — the path, the first bytes of a write, the command and its arguments. */
    @Test
    void theApprovalPromptShowsWhatItApproves() {
        ConformanceTest.Run r = repl(String.join("\n",
                "(file-write (path \"out.txt\") (string-to-bytes \"hello\\nworld \\u{1b}[2J\\u{202e}\"))", "n",
                "(file-write (path \"big.txt\") (string-to-bytes (string-repeat \"ab\" 3000)))", "n",
                "(process-run \"/usr/bin/id\" (list \"-u\" \"\\u{1b}]0;owned\\u{7}\"))", "n",
                ":quit", ""), "--workspace", dir.toString());
        assertThat(r.exit()).isZero();
        String out = r.out();
        assertThat(out).contains("the program asks: file-write (path \"out.txt\") <19 bytes: \"hello\\nworld \\u{1b}[2J\\u{202e}\">\n"
                + "allow fs.write(${workspace}/out.txt)? [o]nce/[s]ession/[p]roject/[a]lways/[n]o");
        assertThat(out).contains("the program asks: file-write (path \"big.txt\") <6000 bytes, starting \"" + "ab".repeat(32) + "\"…>\n"
                + "allow fs.write(${workspace}/big.txt)?");
        assertThat(out).contains("the program asks: process-run \"/usr/bin/id\" [\"-u\" \"\\u001B]0;owned\\u0007\"]\n"
                + "allow process.run(/usr/bin/id)?");
        // Nothing a program passed reaches the terminal as a control character in the question.
        for (String line : out.split("\n")) {
            if (line.startsWith("the program asks:")) assertThat(line).doesNotContain("\u001b").doesNotContain("\u202e").doesNotContain("\u0007");
        }
        assertThat(out.split("error\\[E-HOST-001]", -1)).hasSize(4);
        assertThat(dir.resolve("out.txt")).doesNotExist();
    }

    /**
     * Issue 35 item 7: Ctrl-C while an entry runs cancels that run — its process is killed, nothing is committed — and
     * the REPL and its session go on. The input is typed as a person would: the Ctrl-C comes once the program has
     * started (its say text, which the echoed entry does not contain, is on the screen). The waits are hang guards.
     */
    @Test
    void ctrlCCancelsTheRunningProgramNotTheRepl() throws Exception {
        java.io.PipedOutputStream typed = new java.io.PipedOutputStream();
        java.io.PipedInputStream in = new java.io.PipedInputStream(typed, 1 << 16);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        var repl = java.util.concurrent.CompletableFuture.supplyAsync(() -> Main.execute(
                new String[] {"repl", "--no-history", "--grant", "process.run(/bin/sleep)"}, in, out, err));
        typed.write("(define kept 1)\n(say (string-append \"sta\" \"rted\")) (define lost 2) (process-run \"/bin/sleep\" (list \"600\"))\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        typed.flush();
        for (int i = 0; i < 6_000 && !out.toString(java.nio.charset.StandardCharsets.UTF_8).contains("started"); i++) Thread.sleep(10);
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("started");
        typed.write(3); // Ctrl-C
        typed.write("(+ kept 41)\n(+ lost 0)\n(say \"still here\")\n:quit\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        typed.close();
        int exit = repl.get(60, java.util.concurrent.TimeUnit.SECONDS);
        String shown = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(exit).as(shown).isZero();
        assertThat(shown).contains("error[E-RUN-001]").contains("cancelled; nothing was committed");
        // The session goes on with what was committed before; the cancelled entry's definition is not there.
        assertThat(shown).contains("stack:  42 : int").contains("still here");
        assertThat(shown).contains("error[E-LISP-102] lower: unknown name 'lost'");
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("\tat ");
    }

    @Test
    void endOfInputAtACapabilityQuestionDenies() throws IOException {
        Files.writeString(dir.resolve("n.txt"), "note");
        ConformanceTest.Run r = repl("\"n.txt\" path file-read drop\n", "--workspace", dir.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("error[E-HOST-001]").contains("the input ended");
    }

    @Test
    void yieldsAreShownAndResumed() {
        ConformanceTest.Run r = repl("\"a\" say 1 yield 2 yield \"b\" say\n:quit\n");
        assertThat(r.out()).contains("a\nyield: 1 : int\nyield: 2 : int\nb\n");
    }

    @Test
    void historyIsWrittenToTheGivenFile() throws IOException {
        Path h = dir.resolve("hist");
        {
            ConformanceTest.Run r = ConformanceTest.invoke(List.of("repl", "--history", h.toString()), "1 2 +\n:state\n");
            assertThat(r.exit()).isZero();
        }
        assertThat(Files.readString(h)).contains("1 2 +").contains(":state");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(repl("", "--lang", "cobol").exit()).isEqualTo(2);
        assertThat(repl("", "--workspace", dir.resolve("missing").toString()).exit()).isEqualTo(2);
        assertThat(repl("", "--grant", "not a grant(").exit()).isEqualTo(2);
    }

    @Test
    void theLanguageOptionFixesEveryEntry() {
        ConformanceTest.Run r = repl("( 1 2 ) 3\n", "--lang", "forth");
        // As Co-Forth, "( 1 2 )" is a comment (inferred, "(" would mean Lisp and fail).
        assertThat(r.out()).contains("stack:  3 : int");
        assertThat(r.out()).doesNotContain("error[");
    }

    /** Issue 21, item 2: the REPL opens $EDITOR on a proposal and asks execute / chat / cancel; the edit comes back as data. */
    @Test
    void aProposalOpensTheEditorAndTheEditedSourceComesBack() throws Exception {
        java.nio.file.Path editor = dir.resolve("edit.sh");
        java.nio.file.Files.writeString(editor, "#!/bin/sh\necho '# reviewed' >> \"$1\"\n");
        editor.toFile().setExecutable(true);
        String input = String.join("\n", "(proposal-open \"python\" \"Count\" \"print(1)\n\")", "e", ":quit", "");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int exit = Main.execute(new String[] {"repl", "--no-history", "--grant", "program.invoke(language=python)"},
                new java.io.ByteArrayInputStream(input.getBytes(java.nio.charset.StandardCharsets.UTF_8)), out, err,
                java.util.Map.of("EDITOR", editor.toString()));
        String o = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(exit).as(err.toString(java.nio.charset.StandardCharsets.UTF_8)).isZero();
        assertThat(o).contains("proposal: Count (python)").contains("[e]xecute / [c]hat / [x] cancel?");
        assertThat(o).contains("(some (ok \"print(1)\\n# reviewed\\n\"))");
    }

    @Test
    void withoutAnEditorAProposalIsAHostError() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int exit = Main.execute(new String[] {"repl", "--no-history", "--grant", "program.invoke(language=bash)"},
                new java.io.ByteArrayInputStream("(proposal-open \"bash\" \"t\" \"ls\")\n:quit\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                out, new java.io.ByteArrayOutputStream(), java.util.Map.of());
        assertThat(exit).isZero();
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("E-HOST-013").contains("set $EDITOR");
    }

    /** Issue 21, item 2: the command line opens no editor; an approved proposal is refused with a diagnostic. */
    @Test
    void finchRunRefusesAnApprovedProposalWithADiagnostic() throws Exception {
        java.nio.file.Path p = dir.resolve("p.lisp");
        java.nio.file.Files.writeString(p, "(proposal-open \"python\" \"Count\" \"print(1)\")");
        ConformanceTest.Run r = ConformanceTest.invoke(List.of("run", "--grant", "program.invoke(language=python)", p.toString()), "");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("E-HOST-013").contains("finch repl");
        ConformanceTest.Run ungranted = ConformanceTest.invoke(List.of("run", p.toString()), "");
        assertThat(ungranted.exit()).as("without the grant it waits for the approval, as every host word").isEqualTo(3);
    }
}
