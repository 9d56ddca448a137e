package dev.finch.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The image law (issue 33): for every program that pauses, continuing through {@code save} → {@code restore} (in a new
 * {@link Finch} with the same key) gives the same outcomes — status, output, events, stack, values, diagnostics, the
 * request or yield it waits at — the same session state afterwards, the same workspace, and the same later turns as
 * continuing in place.
 *
 * <p>{@link #check} runs a {@link Scenario} once in place, counting its pauses, then once more for each pause
 * {@code k}, taking that pause through an image (saved in one Finch, restored in a fresh one) and continuing there; and
 * once taking every pause through an image. Each run continues a pause the one way a host would: a request awaiting
 * approval is approved once, a request awaiting a deferred host's result is declined, a yield is resumed, a CPU task is
 * waited for and resumed (a wait for a task is not counted or observed: whether a join finds its task done is timing). What two runs observe is
 * compared as the outcomes' JSON (decisions D4), with the session and execution ids — which differ by construction — cut
 * out.
 */
public final class ImageLaw {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A session id ({@code s3-k2x9ab}) or an execution id ({@code s3-k2x9ab-e4}): they differ between Finch instances. */
    private static final Pattern IDS = Pattern.compile("s\\d+-[a-z0-9]+(-e\\d+)?");
    /** The most continuations one execution gets before the law calls it a loop. */
    private static final int MAX_STEPS = 200;

    private ImageLaw() { }

    /**
     * A program to run: the Finch each world builds over its workspace (the same configuration every time; it must sign
     * images), the workspace's files, the session's grants, its turns (each a submission, continued until it ends), and the later
     * turns run after the last one (the ones that look at what the program left: its definitions and constants), and
     * what the world's hosts did outside its workspace (a model's asks, say), read when the world ends.
     */
    public record Scenario(String name, java.util.function.Function<Path, Finch> finch, Map<String, byte[]> files, List<String> grants,
                           List<Submission> turns, List<Submission> later, java.util.function.Function<Path, String> effects) {
        public Scenario {
            files = Map.copyOf(files);
            grants = List.copyOf(grants);
            turns = List.copyOf(turns);
            later = List.copyOf(later);
        }

        /** A scenario whose effects are all in its workspace's files. */
        public Scenario(String name, java.util.function.Function<Path, Finch> finch, Map<String, byte[]> files, List<String> grants,
                        List<Submission> turns, List<Submission> later) {
            this(name, finch, files, grants, turns, later, ws -> "");
        }

        @Override public String toString() { return name; }
    }

    /** What one world observed: every outcome in order, then the session's state and the workspace's files. */
    public record Observed(List<String> outcomes, String state, Map<String, String> files, String effects, int pauses) { }

    /** Where two worlds first differ, or empty when they agree. */
    public record Verdict(Scenario scenario, int pauses, List<String> differences) {
        public boolean holds() { return differences.isEmpty(); }

        @Override public String toString() {
            return scenario.name() + " (" + pauses + " pauses): " + (holds() ? "holds" : String.join("\n", differences));
        }
    }

    /** Runs {@code s} in place and through an image at each of its pauses (and at all of them), and compares. */
    public static Verdict check(Scenario s) {
        Observed inPlace = run(s, k -> false);
        List<String> differences = new ArrayList<>();
        for (int k = 1; k <= inPlace.pauses(); k++) {
            int at = k;
            Observed through = run(s, n -> n == at);
            differ("image at pause " + k, inPlace, through, differences);
        }
        if (inPlace.pauses() > 1) differ("image at every pause", inPlace, run(s, n -> true), differences);
        return new Verdict(s, inPlace.pauses(), differences);
    }

    private static void differ(String how, Observed a, Observed b, List<String> out) {
        if (a.equals(b)) return;
        int n = Math.max(a.outcomes().size(), b.outcomes().size());
        for (int i = 0; i < n; i++) {
            String x = i < a.outcomes().size() ? a.outcomes().get(i) : "(none)";
            String y = i < b.outcomes().size() ? b.outcomes().get(i) : "(none)";
            if (!x.equals(y)) {
                out.add(how + ", outcome " + (i + 1) + ":\n  in place: " + x + "\n  restored: " + y);
                return;
            }
        }
        if (!a.state().equals(b.state())) out.add(how + ", session state:\n  in place: " + a.state() + "\n  restored: " + b.state());
        else if (!a.files().equals(b.files())) out.add(how + ", workspace:\n  in place: " + a.files() + "\n  restored: " + b.files());
        else if (!a.effects().equals(b.effects())) out.add(how + ", effects:\n  in place: " + a.effects() + "\n  restored: " + b.effects());
        else out.add(how + ": " + a.pauses() + " pauses in place, " + b.pauses() + " restored");
    }

    /** Runs the scenario in a world of its own, taking pause {@code n} through an image when {@code throughImage} says so. */
    private static Observed run(Scenario s, java.util.function.IntPredicate throughImage) {
        Path ws = workspace(s);
        try {
            SessionOptions options = SessionOptions.DEFAULT.withWorkspace(ws);
            for (String g : s.grants()) options = options.withGrant(g);
            Finch finch = s.finch().apply(ws);
            Session session = finch.newSession(options);
            List<String> outcomes = new ArrayList<>();
            int pauses = 0;
            for (Submission turn : s.turns()) {
                Outcome o = session.submit(turn);
                int steps = 0;
                // Whether the task wait in hand is the restored run's own, after its first wait went through an image.
                boolean restoredWait = false;
                while (true) {
                    // A wait for a CPU task or child agent still working is the scheduler's doing, not the program's:
                    // whether a join finds its task done depends on timing. It is continued unobserved (and taken
                    // through an image when every pause is).
                    boolean taskWait = o instanceof Outcome.Suspended && o.waitingTask().isPresent();
                    if (!taskWait) outcomes.add(normalized(o));
                    if (!(o instanceof Outcome.Suspended)) break;
                    if (++steps > MAX_STEPS) throw new AssertionError(s.name() + ": more than " + MAX_STEPS + " pauses in one execution");
                    if (!taskWait) pauses++;
                    if (taskWait ? !restoredWait && throughImage.test(-1) : throughImage.test(pauses)) {
                        String image = session.save(o.executionId());
                        finch.close();
                        finch = s.finch().apply(ws);
                        session = finch.restore(image, options);
                        if (taskWait) {
                            // The restored run starts its task again (the old one ended with its Finch): resuming now
                            // re-executes the join, which pauses on the new task; that wait is waited for, not imaged
                            // again — imaging every wait of a task that is restarted each time would never end.
                            restoredWait = true;
                            o = session.resume(o.executionId());
                            continue;
                        }
                    }
                    restoredWait = false;
                    o = continueOnce(session, o);
                }
            }
            for (Submission turn : s.later()) outcomes.add(normalized(session.submit(turn)));
            // What the program left must work as it did: each definition reads back as the same source, each constant
            // is read by a later turn.
            for (var d : session.getVmState().definitions()) {
                outcomes.add("inspect " + d.name() + ": " + session.inspectWord(d.name()).map(Object::toString).orElse("(nothing)"));
            }
            for (var c : session.getVmState().constants()) {
                outcomes.add("read " + c.name() + ": " + normalized(session.submit(Submission.of(c.name(), "later-" + c.name())
                        .withLanguage(dev.finch.Language.FORTH))));
            }
            String state = IDS.matcher(JSON.writeValueAsString(session.getVmState())).replaceAll("<id>");
            finch.close();
            return new Observed(outcomes, state, files(ws), s.effects().apply(ws), pauses);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            delete(ws);
        }
    }

    /** Continues a suspended execution as a host would: approve a missing grant once, resume a yield or a finished task. */
    static Outcome continueOnce(Session session, Outcome o) {
        if (o.pendingRequest().isPresent()) {
            Outcome.PendingRequest p = o.pendingRequest().get();
            if (p.awaiting() == Outcome.Awaiting.APPROVAL) return session.approve(o.executionId(), Scope.ONCE);
            // Deferred mode: the host answers; here always with the same denial.
            return session.respond(o.executionId(), new dev.finch.vm.boundary.HostResponse.Denied(p.request().sequence(), "the law's host declines"));
        }
        if (o.waitingTask().isPresent()) {
            try {
                o.waitingTask().get().done().get(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("the awaited task did not end", e);
            }
        }
        return session.resume(o.executionId());
    }

    /** The outcome's JSON with the ids that differ between worlds cut out. */
    static String normalized(Outcome o) {
        try {
            ObjectNode tree = (ObjectNode) JSON.readTree(FinchJson.write(o));
            tree.remove("execution_id");
            JsonNode pending = tree.get("pending_request");
            if (pending instanceof ObjectNode p) p.remove("execution_id");
            return IDS.matcher(tree.toString()).replaceAll("<id>");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path workspace(Scenario s) {
        try {
            Path ws = Files.createTempDirectory("finch-law");
            Files.writeString(ws.resolve("pause.txt"), "paused");
            for (var f : s.files().entrySet()) {
                Path target = ws.resolve(f.getKey());
                Files.createDirectories(target.getParent());
                Files.write(target, f.getValue());
            }
            return ws;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> files(Path ws) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(ws)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                out.put(ws.relativize(p).toString(), java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(Files.readAllBytes(p))));
            }
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    private static void delete(Path ws) {
        try (Stream<Path> all = Files.walk(ws)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            // A temporary directory left behind is not the law's concern.
        }
    }

    /** Files given as text (UTF-8). */
    public static Map<String, byte[]> texts(Map<String, String> files) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        files.forEach((k, v) -> out.put(k, v.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return out;
    }
}
