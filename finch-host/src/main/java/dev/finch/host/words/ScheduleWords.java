package dev.finch.host.words;

import dev.finch.host.ScheduleCode;
import dev.finch.host.ScheduleHost;
import dev.finch.host.ScheduleWhen;
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
import java.util.Optional;

/**
 * Schedules: a program asks for work to run later — at an instant, after a delay, or on a cron expression — under a
 * policy the host defined, which says what grants that run receives. The work is program text (three strings, or a
 * record that names its language) or a word the program defined (a record naming it). Each word needs
 * {@code schedule.create(policy=P)} for the policy it names: the three strings' requirement is inferred from a literal
 * policy; a record's is {@code schedule.create(policy=*)} until the run asks for the policy it holds.
 */
public final class ScheduleWords {
    private ScheduleWords() { }

    /** The largest scheduled program, in UTF-8 bytes. */
    public static final int MAX_PROGRAM_BYTES = 64 * 1024;

    /** The languages a scheduled program may name ({@code ""} in a record: the contract's rule decides). */
    private static final java.util.Set<String> LANGUAGES = java.util.Set.of("lisp", "forth", "norman");

    @Word(name = "schedule-create", category = Category.HOST, doc = "Run work later in a new session with a policy's grants. when: ISO instant, "
            + "delay (PT10S) or 5-field UTC cron. Work: program text (a record may name its language) or a defined word "
            + "without inputs. Answers the id.")
    @Overload(id = "schedule-create-text", sig = "string string string -> string ! {schedule.create(policy=*)}", requires = "schedule.create(policy=$0)")
    public static Object scheduleCreate(Ctx ctx, String policy, String when, String program, Type.Fn site, Origin o) {
        return create(ctx, policy, when, program(program, Optional.empty(), o), EffectRequest.inputs(site, policy, when, program), site, o);
    }

    @Overload(word = "schedule-create", id = "schedule-create-program", order = 1,
            sig = PROGRAM + " -> string ! {schedule.create(policy=*)}")
    public static Object scheduleCreateProgram(Ctx ctx, Object record, Type.Fn site, Origin o) {
        RecordValue r = (RecordValue) record;
        String language = (String) r.get(0);
        if (!language.isEmpty() && !LANGUAGES.contains(language)) {
            throw new FinchTrap(ScheduleCode.BAD_PROGRAM, o, "a scheduled program's language is lisp, forth or norman (or \"\": by its text), not \""
                    + abbreviate(language) + "\"");
        }
        ScheduleHost.Work work = program((String) r.get(2), language.isEmpty() ? Optional.empty() : Optional.of(language), o);
        return create(ctx, (String) r.get(1), (String) r.get(3), work, EffectRequest.inputs(site, record), site, o);
    }

    @Overload(word = "schedule-create", id = "schedule-create-word", order = 2, sig = WORD + " -> string ! {schedule.create(policy=*)}")
    public static Object scheduleCreateWord(Ctx ctx, Object record, Type.Fn site, Origin o) {
        RecordValue r = (RecordValue) record;
        String word = (String) r.get(2);
        if (word.isBlank() || word.length() > 200) {
            throw new FinchTrap(ScheduleCode.UNKNOWN_WORD, o, word.isBlank() ? "the scheduled word's name is empty" : "no word is named \"" + abbreviate(word) + "\"");
        }
        // What the word's definitions read is kept with it: the host takes the constants' values as the run holds them now.
        ScheduleHost.Work work = new ScheduleHost.Work.Word(word, java.util.Collections.unmodifiableMap(ctx.constants()));
        return create(ctx, (String) r.get(0), (String) r.get(1), work, EffectRequest.inputs(site, record), site, o);
    }

    /** The record a program is scheduled with: its language ({@code ""}: by its text), policy, text and when. */
    static final String PROGRAM = "record{language:string,policy:string,program:string,when:string}";
    /** The record a defined word is scheduled with: policy, when and the word's name. */
    static final String WORD = "record{policy:string,when:string,word:string}";

    private static ScheduleHost.Work program(String program, Optional<String> language, Origin o) {
        int bytes = program.getBytes(StandardCharsets.UTF_8).length;
        if (program.isBlank() || bytes > MAX_PROGRAM_BYTES) {
            throw new FinchTrap(ScheduleCode.BAD_PROGRAM, o, program.isBlank() ? "the scheduled program is empty"
                    : "the scheduled program is " + bytes + " bytes; at most " + MAX_PROGRAM_BYTES);
        }
        return new ScheduleHost.Work.Program(program, language);
    }

    /** Checks {@code when}, then asks for {@code schedule.create(policy=P)} and has the host keep {@code work}. */
    private static Object create(Ctx ctx, String policy, String when, ScheduleHost.Work work, List<dev.finch.vm.TypedValue> inputs, Type.Fn site, Origin o) {
        ScheduleWhen w = ScheduleWhen.parse(when).orElseThrow(() -> new FinchTrap(ScheduleCode.BAD_WHEN, o, "\"" + abbreviate(when)
                + "\" is not an ISO-8601 instant (2026-12-08T09:00:00Z), a positive ISO-8601 duration (PT10S) or a five-field cron expression (0 9 * * 1-5)"));
        RunHost run = RunHost.of(ctx);
        ScheduleHost host = run.config().binding(ScheduleHost.class);
        return run.await(ctx, "schedule-create", capability(policy), inputs, site.outs(), o, host == null ? null : () -> host.create(policy, w, work));
    }

    @Word(name = "schedule-list", category = Category.HOST, doc = "A policy's live schedules in id order: id, policy, when, program, "
            + "runs made, next run (ISO instant).")
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

    @Word(name = "schedule-cancel", category = Category.HOST, doc = "Cancel a policy's schedule by id (policy, id): true when it was live.")
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
