package dev.finch.temporal;

import dev.finch.capabilities.Scope;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The session workflow. Deterministic by construction: it decides only from its state and from activity results, and
 * everything that runs a program or an effect is an activity ({@link FinchSteps}, {@link FinchHost}) whose result the
 * history records — so a replay takes every result from the history, reproduces the same image (the continuation) at
 * every point, and dispatches no acknowledged effect again.
 *
 * <p>Updates queue their command and wait for its answer; the workflow method takes the commands one at a time, so a
 * session has one writer whatever the number of callers. After a command, when the history has grown past what the
 * workflow was built to keep ({@link Limits}) or Temporal suggests it, and nothing is queued, it continues as new with
 * its {@link SessionState}.
 */
public class FinchSessionWorkflowImpl implements FinchSessionWorkflow {
    /**
     * How the workflow runs its activities and when it continues as new. Every worker of a task queue must use the same
     * limits (they decide the history).
     *
     * @param steps          options of the Finch steps: computation only, so retried freely
     * @param host           options of the host activity, which performs the effects
     * @param historyEvents  continue as new after a command once the history has this many events
     * @param historyBytes   … or this many bytes (images are in the history: each step records one or two)
     */
    public record Limits(ActivityOptions steps, ActivityOptions host, long historyEvents, long historyBytes) {
        /** Steps time out after 5 minutes, effects after 10; each is tried 5 times; 10,000 events or 16 MiB of history. */
        public static final Limits DEFAULT = new Limits(
                ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofMinutes(5))
                        .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofSeconds(1)).setMaximumAttempts(5).build()).build(),
                ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofMinutes(10))
                        .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofSeconds(1)).setMaximumAttempts(5).build()).build(),
                10_000, 16L << 20);

        /** These limits, continuing as new after {@code events} history events. */
        public Limits withHistoryEvents(long events) { return new Limits(steps, host, events, historyBytes); }
    }

    /** A command an update queued. */
    private sealed interface Command permits Submit, Approve, Deny, Respond, Resume { }
    private record Submit(String text, String sourceId) implements Command { }
    private record Approve(String executionId, long sequence, String scope) implements Command { }
    private record Deny(String executionId, long sequence, String reason) implements Command { }
    private record Respond(String vmResume) implements Command { }
    private record Resume(String executionId) implements Command { }
    private record Queued(long id, Command command) { }
    /** A command's answer: an outcome's JSON, or why no step could be taken. */
    private record Answer(String outcome, String failure) { }

    private final Limits limits;
    private final FinchSteps steps;
    private final FinchHost host;
    private final Deque<Queued> queue = new ArrayDeque<>();
    private final Map<Long, Answer> answers = new HashMap<>();
    private long commands;
    private boolean busy;
    private boolean closing;
    private String image;
    private List<String> grants = new ArrayList<>();
    private final Map<String, List<String>> taskGrants = new TreeMap<>();
    private List<String> external = List.of();
    private Step last;
    private long stepCount;

    /** The workflow with {@link Limits#DEFAULT}. */
    public FinchSessionWorkflowImpl() { this(Limits.DEFAULT); }

    /** The workflow with {@code limits} (register it with a factory: {@link FinchWorker}). */
    public FinchSessionWorkflowImpl(Limits limits) {
        this.limits = limits;
        this.steps = Workflow.newActivityStub(FinchSteps.class, limits.steps());
        this.host = Workflow.newActivityStub(FinchHost.class, limits.host());
    }

    @Override public SessionView run(SessionState start) {
        SessionState s = start == null ? SessionState.fresh() : start;
        image = s.image();
        grants = new ArrayList<>(s.grants());
        s.taskGrants().forEach((k, v) -> taskGrants.put(k, new ArrayList<>(v)));
        external = s.externalOperations();
        last = s.last();
        stepCount = s.steps();
        while (true) {
            Workflow.await(() -> !queue.isEmpty() || closing);
            if (queue.isEmpty()) {
                Workflow.await(Workflow::isEveryHandlerFinished);
                return view();
            }
            Queued q = queue.poll();
            busy = true;
            Answer a;
            try {
                a = execute(q.command());
            } catch (ActivityFailure f) {
                a = new Answer(null, "a Finch activity failed: " + cause(f) + (waiting() ? "; the execution still waits as before" : ""));
            } finally {
                busy = false;
            }
            answers.put(q.id(), a);
            if (queue.isEmpty() && !closing && historyIsLong()) {
                // Let the handler that was just answered return first; a new command cancels the plan for now.
                Workflow.await(() -> Workflow.isEveryHandlerFinished() || !queue.isEmpty());
                if (queue.isEmpty()) Workflow.continueAsNew(state());
            }
        }
    }

    private boolean historyIsLong() {
        var info = Workflow.getInfo();
        return info.isContinueAsNewSuggested() || info.getHistoryLength() >= limits.historyEvents() || info.getHistorySize() >= limits.historyBytes();
    }

    /** The state to continue as new with (and that a run would report). */
    private SessionState state() {
        Map<String, List<String>> tasks = new TreeMap<>();
        taskGrants.forEach((k, v) -> tasks.put(k, List.copyOf(v)));
        return new SessionState(image, grants, tasks, external, last, stepCount);
    }

    private Answer execute(Command c) {
        if (c instanceof Submit s) {
            if (waiting()) return new Answer(null, "execution " + last.executionId() + " waits (" + waitsFor() + "); answer or deny it before the next submission");
            return new Answer(drive(steps.submit(image, grants, s.text(), s.sourceId())), null);
        }
        if (c instanceof Approve a) {
            Pending approved = last == null ? null : last.pending();
            Step step = steps.approve(image, grantsFor(a.executionId()), a.executionId(), a.sequence(), a.scope());
            if (!Step.REFUSED.equals(step.status()) && approved != null) remember(a.executionId(), approved.requirement(), a.scope());
            return new Answer(drive(step), null);
        }
        if (c instanceof Deny d) return new Answer(drive(steps.deny(image, grantsFor(d.executionId()), d.executionId(), d.sequence(), d.reason())), null);
        if (c instanceof Respond r) {
            String executionId = last == null ? null : last.executionId();
            return new Answer(drive(steps.respond(image, grantsFor(executionId), r.vmResume())), null);
        }
        Resume r = (Resume) c;
        return new Answer(drive(steps.resume(image, grantsFor(r.executionId()), r.executionId())), null);
    }

    /**
     * Takes {@code step}, then dispatches every approved request the step left to the host activity and answers the
     * execution with its result, until the execution completes, fails, or waits for something only the host's people
     * or an outside host can give. Answers the last outcome.
     */
    private String drive(Step first) {
        Step step = first;
        take(step);
        while (step.suspended() && step.pending() != null && !step.pending().awaitsApproval() && !external.contains(step.pending().operation())) {
            String executionId = step.executionId();
            String answer = host.perform(image, grantsFor(executionId), executionId, step.pending().sequence());
            step = steps.respond(image, grantsFor(executionId), answer);
            take(step);
        }
        return step.outcome();
    }

    private void take(Step step) {
        stepCount++;
        if (Step.REFUSED.equals(step.status())) return;      // nothing was taken: the execution still waits as it did
        image = step.image();
        last = step;
        if (!step.suspended()) taskGrants.remove(step.executionId());
    }

    /** Keeps an approval's authority where images carry none: in the workflow, for the steps that need it. */
    private void remember(String executionId, String requirement, String scope) {
        Scope s = Scope.valueOf(scope.toUpperCase(Locale.ROOT));
        if (s == Scope.ONCE) return;
        if (s == Scope.TASK) {
            taskGrants.computeIfAbsent(executionId, k -> new ArrayList<>()).add(requirement);
        } else if (!grants.contains(requirement)) {
            grants.add(requirement);
        }
    }

    /** The session's grants and those given for {@code executionId}'s own task. */
    private List<String> grantsFor(String executionId) {
        List<String> task = executionId == null ? null : taskGrants.get(executionId);
        if (task == null) return grants;
        List<String> all = new ArrayList<>(grants);
        all.addAll(task);
        return all;
    }

    private boolean waiting() { return last != null && last.suspended(); }

    private String waitsFor() {
        if (last.pending() == null) return "at a yield";
        return "request " + last.pending().sequence() + ", " + last.pending().operation() + ", awaiting " + last.pending().awaiting();
    }

    private static String cause(Throwable f) {
        Throwable t = f;
        while (t.getCause() != null) t = t.getCause();
        return t instanceof ApplicationFailure a ? a.getOriginalMessage() : t.getMessage();
    }

    // ---- updates ----

    @Override public String submit(String text, String sourceId) { return enqueue(new Submit(text, sourceId)); }

    @Override public String approve(String executionId, long sequence, String scope) { return enqueue(new Approve(executionId, sequence, scope)); }

    @Override public String deny(String executionId, long sequence, String reason) { return enqueue(new Deny(executionId, sequence, reason)); }

    @Override public String respond(String vmResume) { return enqueue(new Respond(vmResume)); }

    @Override public String resume(String executionId) { return enqueue(new Resume(executionId)); }

    private String enqueue(Command c) {
        long id = ++commands;
        queue.add(new Queued(id, c));
        Workflow.await(() -> answers.containsKey(id));
        Answer a = answers.remove(id);
        if (a.failure() != null) throw ApplicationFailure.newNonRetryableFailure(a.failure(), "FinchStepFailed");
        return a.outcome();
    }

    // ---- validators: reject what cannot apply now, before it enters the history ----

    /** Whether the state the validators read is the one a new command will meet (nothing before it is queued or running). */
    private boolean settled() { return queue.isEmpty() && !busy; }

    private void open() {
        if (closing) throw new IllegalStateException("the session is closing");
    }

    @Override public void validateSubmit(String text, String sourceId) {
        open();
        if (text == null || sourceId == null) throw new IllegalArgumentException("a submission needs its text and a source id");
        if (settled() && waiting()) {
            throw new IllegalStateException("execution " + last.executionId() + " waits (" + waitsFor() + "); answer or deny it first");
        }
    }

    @Override public void validateApprove(String executionId, long sequence, String scope) {
        open();
        try {
            Scope.valueOf(scope.toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("no approval scope '" + scope + "' (once, task, session)");
        }
        if (settled() && !(waiting() && last.pending() != null && last.pending().awaitsApproval()
                && last.executionId().equals(executionId) && last.pending().sequence() == sequence)) {
            throw new IllegalStateException("the session does not wait for an approval of request " + sequence + " of " + executionId);
        }
    }

    @Override public void validateDeny(String executionId, long sequence, String reason) {
        open();
        if (settled() && !(waiting() && last.pending() != null && last.executionId().equals(executionId) && last.pending().sequence() == sequence)) {
            throw new IllegalStateException("the session does not wait for request " + sequence + " of " + executionId);
        }
    }

    @Override public void validateRespond(String vmResume) {
        open();
        if (vmResume == null) throw new IllegalArgumentException("a VmResume is needed");
        if (settled() && !(waiting() && last.pending() != null)) throw new IllegalStateException("the session does not wait for a host's answer");
    }

    @Override public void validateResume(String executionId) {
        open();
        if (settled() && !(waiting() && last.pending() == null && last.executionId().equals(executionId))) {
            throw new IllegalStateException("execution " + executionId + " is not paused at a yield");
        }
    }

    @Override public void close() { closing = true; }

    @Override public SessionView view() {
        if (last == null) return new SessionView(SessionView.IDLE, null, null, "", null, null, image == null ? 0 : image.length(), stepCount, queue.size());
        return new SessionView(last.status(), last.executionId(), last.outcome(), last.output(), last.pending(), last.yielded(),
                image == null ? 0 : image.length(), stepCount, queue.size());
    }
}
