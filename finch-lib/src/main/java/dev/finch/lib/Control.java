package dev.finch.lib;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.Typing;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.runtime.Strands;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.Locale;
import java.util.TreeMap;

/** Output, the control effects (yield, checked errors, concurrent steps) and inspection of the vocabulary. */
public final class Control {
    private Control() { }

    @Word(name = "say", aka = {"display", "displayln", "print", "println", "printf", "puts", "write", "write-line", "write-string", "newline", "echo", ".", ".\"", "emit", "cr"}, category = Category.OUTPUT, doc = "Append text to the response, exactly (no space, no newline); streamed as it runs.")
    @Overload(sig = "string -> ! {session.emit}")
    public static void say(Ctx ctx, String text, Origin o) { ctx.say(text, o); }

    @Word(name = "yield", category = Category.CONTROL, doc = "Publish one value and suspend the run; resumed with unit.")
    @Overload(sig = "a -> yields<a,unit>")
    public static void yield(Ctx ctx, Object value, Origin o) {
        if (ctx.takeResume()) return;
        if (ctx.fiberDepth > 0) {
            // Inside a fiber's body: the value goes to the fiber-next that runs it, not out of the run.
            ctx.yielded = value;
            ctx.fiberYield = true;
            ctx.suspending = true;
            return;
        }
        if (!Strands.claimPause(ctx, o)) return; // another strand's pause: this yield is made afresh on resume
        ctx.yielded = value;
        ctx.suspending = true;
    }

    @Word(name = "program-error", aka = {"error", "raise", "throw", "abort", "panic"}, category = Category.CONTROL, doc = "Stop with a checked run-time error (the program is wrong, not the world); never caught.")
    @Overload(sig = "string -> a")
    public static Object programError(String message, Origin o) { throw new FinchTrap(VmCode.PROGRAM_ERROR, o, message); }

    @Word(name = "step-spawn", category = Category.CONTROL, typing = Typing.STEP_SPAWN,
            doc = "Start a non-yielding closure as a concurrent step of the run (deterministic scheduler); answers its handle to join. "
                    + "Its effects are the spawn's; its pauses (approval, a deferred answer) pause the run, which resumes with it.")
    @Overload(sig = "( -> a) -> task<a>")
    public static Object stepSpawn(Ctx ctx, Object closure, Origin o) {
        dev.finch.vm.runtime.CpuTasks.refuse(ctx, "start a step", o);
        return Strands.spawn(ctx, closure, o);
    }

    @Word(name = "step-join", category = Category.CONTROL, pauses = true,
            doc = "The step's value, waiting until it has ended; a step's checked run-time error stops the whole run. "
                    + "If the run pauses meanwhile, the join waits again when it resumes.")
    @Overload(sig = "task<a> -> a")
    public static Object stepJoin(Ctx ctx, Object task, Origin o) {
        if (task instanceof dev.finch.vm.runtime.CpuTasks.Task) {
            throw new FinchTrap(VmCode.TASK_KIND, o, "`step-join` joins a step (step-spawn), but this handle is a CPU task's (defer-cpu); use task-join");
        }
        dev.finch.vm.runtime.CpuTasks.refuse(ctx, "join a step", o);
        return Strands.join(ctx, task, o);
    }

    @Word(name = "step-fail-siblings", category = Category.CONTROL,
            doc = "The result back; an err stops this step's siblings whose result has its error type: each ends with it at its next check, sending nothing new.")
    @Overload(sig = "result<a,e> -> result<a,e>")
    public static Object stepFailSiblings(Ctx ctx, Object result, dev.finch.ir.type.Type.Fn site) {
        return Strands.failSiblings(ctx, result, ((dev.finch.ir.type.Type.ResultT) site.ins().get(0)).err());
    }

    @Word(name = "vm-vocabulary", category = Category.INSPECTION, doc = "The current typed vocabulary (core words, the host's words and persisted definitions) as json.")
    @Overload(sig = "-> json")
    public static Object vmVocabulary(Ctx ctx) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode out = f.objectNode();
        ArrayNode core = out.putArray("words");
        for (WordSpec w : ctx.vocabulary.words()) {
            ObjectNode o = core.addObject();
            o.put("name", w.name());
            o.put("signature", w.signatureText());
            o.put("category", w.category().name().toLowerCase(Locale.ROOT));
            o.put("doc", w.doc());
        }
        ArrayNode defs = out.putArray("definitions");
        new TreeMap<>(ctx.definitions.get()).forEach((n, sig) -> defs.addObject().put("name", n).put("signature", sig));
        return out;
    }
}
