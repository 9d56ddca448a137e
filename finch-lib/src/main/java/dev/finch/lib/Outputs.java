package dev.finch.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.OutputEvent;
import dev.finch.vm.OutputRecorder;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.OutputHandle;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/**
 * Replaceable and progress output through host-issued opaque handles (the contract: "rich replaceable/progress output
 * will use host-issued opaque output handles rather than guessed string or symbol IDs"). Each word is a response event
 * like {@code say} ({@code session.emit}, never asked for): stack-neutral but for {@code output-open}'s handle, streamed
 * to the run's sink as an {@link OutputEvent} and recorded in the outcome. A handle is run-owned: it is refused
 * ({@code E-OUTPUT-001}) after {@code output-close}, after its run ended (the VM closes what a run leaves open), and in
 * any other run.
 */
public final class Outputs {
    private Outputs() { }

    @Word(name = "output-open", category = Category.OUTPUT,
            doc = "Open a run-owned output handle with a label (a replaceable line or a progress bar, as the host draws it); closed by output-close or when the run ends.")
    @Overload(sig = "string -> resource<output> ! {session.emit}")
    public static Object outputOpen(Ctx ctx, String label, Origin o) {
        OutputRecorder r = ctx.outputs();
        if (r.openHandles().size() >= OutputRecorder.MAX_OPEN) {
            throw new FinchTrap(VmCode.OUTPUT_TOO_MANY, o, "a run may hold at most " + OutputRecorder.MAX_OPEN + " output handles open at once; close some with output-close");
        }
        // Checked (accepted, within the limit) before the handle exists: a refused open leaves nothing open.
        long id = r.lastHandle() + 1;
        ctx.emit(new OutputEvent.Open(id, label), "output-open", o);
        Long opened = r.open(label);
        if (opened == null || opened != id) throw new FinchTrap(VmCode.INTERNAL, o, "output handle numbering went wrong");
        return new OutputHandle(dev.finch.vm.boundary.RunHost.of(ctx).executionId(), id);
    }

    @Word(name = "output-replace", category = Category.OUTPUT, doc = "Replace the text of an open output handle (the host redraws it in place); leaves nothing.")
    @Overload(sig = "resource<output> string -> ! {session.emit}")
    public static void outputReplace(Ctx ctx, Object handle, String text, Origin o) {
        ctx.emit(new OutputEvent.Replace(open(ctx, handle, "output-replace", o), text), "output-replace", o);
    }

    @Word(name = "output-progress", category = Category.OUTPUT,
            doc = "Report that an open output handle's work is done of total (0 <= done <= total, total >= 1; the host draws a bar); leaves nothing.")
    @Overload(sig = "resource<output> int int -> ! {session.emit}")
    public static void outputProgress(Ctx ctx, Object handle, long done, long total, Origin o) {
        long id = open(ctx, handle, "output-progress", o);
        if (total < 1 || done < 0 || done > total) {
            throw new FinchTrap(VmCode.OUTPUT_PROGRESS, o, "output-progress needs 0 <= done <= total and total >= 1, not " + done + " of " + total);
        }
        ctx.emit(new OutputEvent.Progress(id, done, total), "output-progress", o);
    }

    @Word(name = "output-close", category = Category.OUTPUT, doc = "Close an output handle (its display is final); a closed handle is refused afterwards; leaves nothing.")
    @Overload(sig = "resource<output> -> ! {session.emit}")
    public static void outputClose(Ctx ctx, Object handle, Origin o) {
        long id = open(ctx, handle, "output-close", o);
        ctx.emit(new OutputEvent.Close(id), "output-close", o);
        ctx.outputs().close(id);
    }

    /** The number of {@code handle}, open in this run; else {@code E-OUTPUT-001}. */
    private static long open(Ctx ctx, Object handle, String word, Origin o) {
        OutputHandle h = (OutputHandle) handle;
        if (!h.owner().equals(dev.finch.vm.boundary.RunHost.of(ctx).executionId()) || !ctx.outputs().isOpen(h.id())) {
            throw new FinchTrap(VmCode.OUTPUT_CLOSED, o, "`" + word + "` was given " + h + ", which is closed or belongs to another run");
        }
        return h.id();
    }
}
