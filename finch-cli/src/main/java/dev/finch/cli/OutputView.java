package dev.finch.cli;

import dev.finch.vm.OutputEvent;
import dev.finch.vm.OutputSink;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

/**
 * How the command line shows a run's response: {@code say} text byte for byte, and output handles either drawn in
 * place on a terminal (a carriage-return redraw of {@code label [=====>    ] 3/10}, or {@code label: text}) or, when
 * standard output is not a terminal, as one plain line per event ({@code [label] 3/10}). An event line always starts
 * on a line of its own: when say text left the line open, a newline comes first.
 */
final class OutputView implements OutputSink {
    /** Cells of a drawn progress bar. */
    static final int BAR = 20;

    private final Printer out;
    /** Where plain event lines go: {@code out} in the REPL; stderr for {@code finch run}, so stdout stays the say text. */
    private final Printer lines;
    private final boolean terminal;
    private final Map<Long, String> labels = new HashMap<>();
    /** Whether the cursor is at the start of a line. */
    private boolean lineStart = true;
    /** The handle whose line is drawn on the cursor's line now (terminal only), else 0. */
    private long live;

    /** Where the view writes: a print stream (finch run) or a terminal's writer (the REPL). */
    interface Printer {
        void print(String text);

        void flush();
    }

    OutputView(PrintStream out, boolean terminal) { this(printer(out), terminal); }

    /** A view that draws on {@code out} on a terminal and otherwise writes plain event lines to {@code lines}. */
    OutputView(PrintStream out, PrintStream lines, boolean terminal) { this(printer(out), printer(lines), terminal); }

    OutputView(java.io.PrintWriter out, boolean terminal) {
        this(new Printer() {
            @Override public void print(String text) { out.print(text); }
            @Override public void flush() { out.flush(); }
        }, terminal);
    }

    OutputView(Printer out, boolean terminal) { this(out, out, terminal); }

    OutputView(Printer out, Printer lines, boolean terminal) {
        this.out = out;
        this.lines = lines;
        this.terminal = terminal;
    }

    private static Printer printer(PrintStream out) {
        return new Printer() {
            @Override public void print(String text) { out.print(text); }
            @Override public void flush() { out.flush(); }
        };
    }

    /** Whether the cursor is at the start of a line (nothing said, or the last text ended one). */
    boolean atLineStart() { return lineStart && live == 0; }

    /** Tells the view where the cursor is after others wrote to the same stream (the REPL's prompt and results). */
    void cursorAtLineStart(boolean atStart) { lineStart = atStart; }

    @Override public void say(String chunk) { event(new OutputEvent.Say(chunk)); }

    @Override public void event(OutputEvent e) {
        switch (e.kind()) {
            case SAY -> {
                String text = ((OutputEvent.Say) e).text();
                if (text.isEmpty()) return;
                endLive();
                out.print(text);
                lineStart = text.endsWith("\n");
            }
            case OPEN -> {
                OutputEvent.Open o = (OutputEvent.Open) e;
                labels.put(o.handle(), o.label());
                if (terminal) draw(o.handle(), o.label());
                else line("[" + o.label() + "] open");
            }
            case REPLACE -> {
                OutputEvent.Replace r = (OutputEvent.Replace) e;
                String label = labels.getOrDefault(r.handle(), "output#" + r.handle());
                String text = r.text().replace("\r", " ").replace("\n", " ");
                if (terminal) draw(r.handle(), label + ": " + text);
                else line("[" + label + "] " + text);
            }
            case PROGRESS -> {
                OutputEvent.Progress p = (OutputEvent.Progress) e;
                String label = labels.getOrDefault(p.handle(), "output#" + p.handle());
                if (terminal) draw(p.handle(), label + " " + bar(p.done(), p.total()) + " " + p.done() + "/" + p.total());
                else line("[" + label + "] " + p.done() + "/" + p.total());
            }
            case CLOSE -> {
                long h = ((OutputEvent.Close) e).handle();
                String label = labels.remove(h);
                if (terminal) {
                    if (live == h) endLive();
                } else {
                    line("[" + (label == null ? "output#" + h : label) + "] closed");
                }
            }
        }
        out.flush();
    }

    /** {@code [=====>              ]} for done of total. */
    static String bar(long done, long total) {
        int filled = (int) Math.min(BAR, done * BAR / Math.max(1, total));
        StringBuilder b = new StringBuilder(BAR + 2).append('[');
        for (int i = 0; i < BAR; i++) b.append(i < filled ? '=' : i == filled ? '>' : ' ');
        return b.append(']').toString();
    }

    /** One plain event line, on a line of its own (a line of the say text is left alone when the lines go elsewhere). */
    private void line(String text) {
        if (lines != out) {
            lines.print(text + "\n");
            lines.flush();
            return;
        }
        if (!lineStart) out.print("\n");
        out.print(text);
        out.print("\n");
        lineStart = true;
    }

    /** Draws handle {@code h}'s line in place: over its own line, else on a fresh one. */
    private void draw(long h, String text) {
        if (live != h) {
            endLive();
            if (!lineStart) out.print("\n");
        }
        out.print("\r");
        out.print(text);
        out.print("\033[K");
        live = h;
        lineStart = false;
    }

    /** Leaves the drawn line as it is and moves to the next. */
    private void endLive() {
        if (live == 0) return;
        out.print("\n");
        live = 0;
        lineStart = true;
    }

    /** Ends a drawn line still on the cursor's line (at the end of a run), so what follows starts on its own. */
    void finish() {
        endLive();
        out.flush();
    }
}
