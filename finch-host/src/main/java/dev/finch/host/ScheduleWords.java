package dev.finch.host;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.RunHost;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Schedules: a program asks for a program to run later — at an instant, after a delay, or on a cron expression —
 * under a policy the host defined, which says what grants that run receives. Each word needs
 * {@code schedule.create(policy=P)} for the policy it names.
 */
public final class ScheduleWords {
    private ScheduleWords() { }

    /** The largest scheduled program, in UTF-8 bytes. */
    public static final int MAX_PROGRAM_BYTES = 64 * 1024;

    @Word(name = "schedule-create", category = Category.HOST, doc = "Schedule a program (source text: Lisp if it starts with '(', else Co-Forth) "
            + "under a host policy (policy, when, program); when is an ISO instant, an ISO delay (PT10S) or a 5-field UTC cron. "
            + "It runs in a new session with the policy's grants. Answers the id. Needs schedule.create(policy=P).")
    @Overload(sig = "string string string -> string ! {schedule.create(policy=*)}", requires = "schedule.create(policy=$0)")
    public static Object scheduleCreate(Ctx ctx, String policy, String when, String program, Type.Fn site, Origin o) {
        ScheduleWhen w = ScheduleWhen.parse(when).orElseThrow(() -> new FinchTrap(ScheduleCode.BAD_WHEN, o, "\"" + abbreviate(when)
                + "\" is not an ISO-8601 instant (2026-12-08T09:00:00Z), a positive ISO-8601 duration (PT10S) or a five-field cron expression (0 9 * * 1-5)"));
        int bytes = program.getBytes(StandardCharsets.UTF_8).length;
        if (program.isBlank() || bytes > MAX_PROGRAM_BYTES) {
            throw new FinchTrap(ScheduleCode.BAD_PROGRAM, o, program.isBlank() ? "the scheduled program is empty"
                    : "the scheduled program is " + bytes + " bytes; at most " + MAX_PROGRAM_BYTES);
        }
        RunHost run = RunHost.of(ctx);
        ScheduleHost host = run.config().binding(ScheduleHost.class);
        return run.await(ctx, "schedule-create", capability(policy), EffectRequest.inputs(site, policy, when, program), site.outs(), o,
                host == null ? null : () -> host.create(policy, w, program));
    }

    @Word(name = "schedule-list", category = Category.HOST, doc = "A policy's live schedules in id order: id, policy, when, program, "
            + "runs made, next run (an ISO instant). Needs schedule.create(policy=P).")
    @Overload(sig = "string -> list<record{id:string,next:string,policy:string,program:string,runs:int,when:string}> ! {schedule.create(policy=*)}",
            requires = "schedule.create(policy=$0)")
    public static Object scheduleList(Ctx ctx, String policy, Type.Fn site, Origin o) {
        RunHost run = RunHost.of(ctx);
        ScheduleHost host = run.config().binding(ScheduleHost.class);
        return run.await(ctx, "schedule-list", capability(policy), EffectRequest.inputs(site, policy), site.outs(), o, host == null ? null : () -> {
            List<Object> out = new ArrayList<>();
            for (ScheduleHost.Listed l : host.list(policy)) {
                out.add(new RecordValue(new Object[] {l.id(), l.next().toString(), l.policy(), l.program(), l.runs(), l.when()}));
            }
            return ListValue.from(out);
        });
    }

    @Word(name = "schedule-cancel", category = Category.HOST, doc = "Cancel a policy's schedule by id (policy, id): true when it was live. "
            + "Needs schedule.create(policy=P).")
    @Overload(sig = "string string -> bool ! {schedule.create(policy=*)}", requires = "schedule.create(policy=$0)")
    public static boolean scheduleCancel(Ctx ctx, String policy, String id, Type.Fn site, Origin o) {
        RunHost run = RunHost.of(ctx);
        ScheduleHost host = run.config().binding(ScheduleHost.class);
        Object cancelled = run.await(ctx, "schedule-cancel", capability(policy), EffectRequest.inputs(site, policy, id), site.outs(), o,
                host == null ? null : () -> host.cancel(policy, id));
        return cancelled instanceof Boolean b && b; // null while the run pauses: the value is not used then
    }

    private static Capability capability(String policy) { return Capability.of("schedule.create", "policy=" + policy); }

    private static String abbreviate(String s) { return s.length() <= 60 ? s : s.substring(0, 60) + "…"; }
}
