package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.finch.ContinuationLedger;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.Scope;
import dev.finch.ir.diag.Phase;
import dev.finch.store.FinchStore;
import dev.finch.store.Images;
import dev.finch.store.Journal;
import dev.finch.store.Journal.Receipt;
import dev.finch.store.Journal.Recording;
import dev.finch.store.Journal.Status;
import dev.finch.store.Memory;
import dev.finch.store.RememberedGrants;
import dev.finch.store.Schedules;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import dev.finch.store.StoreLimits;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The contract every {@link FinchStore} keeps, run once per store (the embedded SQLite one, PostgreSQL): each part's
 * methods, claims and journal entries won by exactly one of many threads, transactions that commit everything or
 * nothing, every bound, and the code of every refusal. Each test starts from an empty store ({@link #wipe}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StoreContract {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The store every test uses, opened by the subclass on its database. */
    protected FinchStore store;

    /** Another store on the same database, with {@code limits}; the test closes it. */
    protected abstract FinchStore open(StoreLimits limits);

    /** Empties every table of the store's database. */
    protected abstract void wipe() throws Exception;

    @BeforeEach void empty() throws Exception {
        if (store == null) store = open(StoreLimits.DEFAULTS);
        wipe();
    }

    @AfterAll void closeStore() {
        if (store != null) store.close();
    }

    // ------------------------------------------------------------------------------------------------ images

    @Test void imagesArePutReadVersionedAndDeleted() {
        Images images = store.images();
        assertThat(images.get("s1")).isEmpty();
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        assertThat(images.put("s1", "{\"format\":\"one\"}")).isEqualTo(1);
        assertThat(images.put("s1", "{\"format\":\"two\"}")).isEqualTo(2);
        Images.Stored s = images.get("s1").orElseThrow();
        assertThat(s.sessionId()).isEqualTo("s1");
        assertThat(s.version()).isEqualTo(2);
        assertThat(s.image()).isEqualTo("{\"format\":\"two\"}");
        assertThat(s.savedAt()).isAfterOrEqualTo(before);
        assertThat(images.delete("s1")).isTrue();
        assertThat(images.delete("s1")).isFalse();
        assertThat(images.get("s1")).isEmpty();
        assertThat(images.put("s1", "again")).as("a deleted image's session starts again at 1").isEqualTo(1);
    }

    @Test void anImageIsReplacedOnlyAtTheVersionItWasRead() {
        Images images = store.images();
        assertThat(images.replace("s", 0, "first")).isTrue();
        assertThat(images.replace("s", 0, "second")).as("0 means: only if there is none").isFalse();
        assertThat(images.replace("s", 1, "second")).isTrue();
        assertThat(images.replace("s", 1, "stale")).isFalse();
        assertThat(images.get("s").orElseThrow()).extracting(Images.Stored::version, Images.Stored::image).containsExactly(2L, "second");
        assertCode(() -> images.replace("s", -1, "x"), StoreCode.BAD_KEY);
    }

    @Test void imagesKeepTheirTextExactlyAtAnySize() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 200_000; i++) b.append(i % 7 == 0 ? "\uD834\uDD1E" : i % 5 == 0 ? "é\n\"\\" : "x");
        String text = b.toString();
        store.images().put("big", text);
        assertThat(store.images().get("big").orElseThrow().image()).isEqualTo(text);
        assertThat(store.images().list(null, 10)).singleElement().extracting(Images.Entry::chars).isEqualTo((long) text.length());
    }

    @Test void imagesAreListedInCodePointOrderPageByPage() {
        // U+FF21 sorts before U+1D11E by code point, after it by UTF-16 unit: the store's order is the code point's.
        List<String> ids = List.of("b", "a", "A", "\uFF21", "\uD834\uDD1E", "é", "a b", "ab");
        for (String id : ids) store.images().put(id, "image of " + id);
        List<String> sorted = new ArrayList<>(ids);
        sorted.sort((x, y) -> Arrays.compare(x.codePoints().toArray(), y.codePoints().toArray()));
        List<String> seen = new ArrayList<>();
        String after = null;
        while (true) {
            List<Images.Entry> page = store.images().list(after, 3);
            if (page.isEmpty()) break;
            assertThat(page.size()).isLessThanOrEqualTo(3);
            page.forEach(e -> seen.add(e.sessionId()));
            after = page.get(page.size() - 1).sessionId();
        }
        assertThat(seen).isEqualTo(sorted);
    }

    @Test void imagesRefuseBadIdsAndOversizedText() {
        assertCode(() -> store.images().put("", "x"), StoreCode.BAD_KEY);
        assertCode(() -> store.images().put("a\u0000b", "x"), StoreCode.BAD_KEY);
        assertCode(() -> store.images().put("a\uD800", "x"), StoreCode.BAD_KEY);
        assertCode(() -> store.images().get("x".repeat(StoreLimits.MAX_ID_CHARS + 1)), StoreCode.BAD_KEY);
        assertCode(() -> store.images().put("s", null), StoreCode.BAD_KEY);
        // Text every store keeps as it is: PostgreSQL keeps no NUL and no lone surrogate, so no store takes them.
        assertCode(() -> store.images().put("s", "{\"a\":\"\u0000\"}"), StoreCode.BAD_KEY);
        assertCode(() -> store.images().put("s", "x\uDC00y"), StoreCode.BAD_KEY);
        assertThat(store.images().get("s")).isEmpty();
        assertCode(() -> store.images().list(null, 0), StoreCode.BAD_KEY);
        assertCode(() -> store.images().list(null, StoreLimits.DEFAULTS.maxListing() + 1), StoreCode.TOO_LARGE);
        try (FinchStore small = open(StoreLimits.DEFAULTS.withMaxImageChars(10))) {
            assertThat(small.images().put("s", "0123456789")).isEqualTo(1);
            assertCode(() -> small.images().put("s", "0123456789A"), StoreCode.TOO_LARGE);
            assertCode(() -> small.images().replace("s", 1, "0123456789A"), StoreCode.TOO_LARGE);
        }
        assertThat(store.images().get("s").orElseThrow().image()).isEqualTo("0123456789");
    }

    // ------------------------------------------------------------------------------------------------ claims

    @Test void aPauseIsClaimedOnce() {
        assertThat(store.claims().isClaimed("e1", 1)).isFalse();
        assertThat(store.claims().claim("e1", 1)).isTrue();
        assertThat(store.claims().claim("e1", 1)).isFalse();
        assertThat(store.claims().isClaimed("e1", 1)).isTrue();
        assertThat(store.claims().claim("e1", 2)).isTrue();
        assertThat(store.claims().claim("e2", 1)).isTrue();
        assertCode(() -> store.claims().claim("e1", 0), StoreCode.BAD_KEY);
        assertCode(() -> store.claims().claim("", 1), StoreCode.BAD_KEY);
    }

    @Test void aClaimantsRetryHoldsItsClaimAndNobodyElseGetsIt() {
        assertThat(store.claims().claim("step", 1, "activity-a")).isTrue();
        assertThat(store.claims().claim("step", 1, "activity-a")).as("the same claimant's retry").isTrue();
        assertThat(store.claims().claim("step", 1, "activity-b")).isFalse();
        assertThat(store.claims().claim("step", 1)).isFalse();
        assertThat(store.claims().claim("plain", 1)).isTrue();
        assertCode(() -> store.claims().claim("plain", 2, ""), StoreCode.BAD_KEY);
    }

    @Test void theLedgerOfTwoStoresOnOneDatabaseLetsOneCopyContinue() {
        try (FinchStore other = open(StoreLimits.DEFAULTS)) {
            ContinuationLedger mine = store.claims().ledger(), theirs = other.claims().ledger();
            assertThat(mine.claim("exec", 1)).isTrue();
            assertThat(theirs.claim("exec", 1)).isFalse();
            assertThat(theirs.claim("exec", 2)).isTrue();
            assertThat(mine.claim("exec", 2)).isFalse();
        }
    }

    @Test void concurrentClaimsFromManyThreadsHaveExactlyOneWinnerEach() throws Exception {
        int threads = 8, pairs = 25;
        Map<Long, AtomicInteger> wins = new ConcurrentHashMap<>();
        for (long p = 1; p <= pairs; p++) wins.put(p, new AtomicInteger());
        race(threads, t -> {
            List<Long> order = new ArrayList<>(wins.keySet());
            Collections.shuffle(order, new java.util.Random(t));
            for (long p : order) if (store.claims().claim("race", p)) wins.get(p).incrementAndGet();
        });
        assertThat(wins.values()).allSatisfy(w -> assertThat(w.get()).isEqualTo(1));
    }

    // ----------------------------------------------------------------------------------------------- journal

    private static Journal.Intent intent(String exec, long seq, String digestOf) {
        return new Journal.Intent(exec, seq, "fs.write(${workspace}/out.txt)", "file-write", Journal.digest(digestOf));
    }

    @Test void anEffectIsRecordedBeforeDispatchAndSettledAfter() {
        Journal j = store.journal();
        Journal.Intent i = intent("e", 1, "[\"out.txt\",\"aGk=\"]");
        assertThat(j.status("e", 1)).isEqualTo(new Status.Unrecorded("e", 1));
        Recording r = j.record(i);
        assertThat(r.kind()).isEqualTo(Recording.Kind.RECORDED);
        assertThat(((Recording.Recorded) r).intent()).isEqualTo(i);
        assertThat(j.status("e", 1).kind()).isEqualTo(Status.Kind.PENDING);
        assertThat(j.pending("e")).singleElement().extracting(Status.Pending::intent).isEqualTo(i);
        assertThat(j.settle("e", 1, new Receipt.Acknowledged("{\"type\":\"unit\"}"))).isTrue();
        assertThat(j.settle("e", 1, new Receipt.Denied("late"))).as("the first receipt stands").isFalse();
        Status.Settled s = (Status.Settled) j.status("e", 1);
        assertThat(s.intent()).isEqualTo(i);
        assertThat(s.receipt()).isEqualTo(new Receipt.Acknowledged("{\"type\":\"unit\"}"));
        assertThat(s.settledAt()).isAfterOrEqualTo(s.recordedAt());
        assertThat(j.pending("e")).isEmpty();
        Recording again = j.record(i);
        assertThat(again.kind()).as("a settled effect is never recorded for dispatch again").isEqualTo(Recording.Kind.DUPLICATE);
        assertThat(((Recording.Duplicate) again).status()).isEqualTo(s);
    }

    @Test void anotherEffectUnderTheSameKeyIsAConflictAndChangesNothing() {
        Journal j = store.journal();
        j.record(intent("e", 1, "a"));
        Recording r = j.record(intent("e", 1, "b"));
        assertThat(r.kind()).isEqualTo(Recording.Kind.CONFLICT);
        assertThat(((Status.Pending) ((Recording.Conflict) r).status()).intent()).isEqualTo(intent("e", 1, "a"));
        Recording other = j.record(new Journal.Intent("e", 1, "fs.read(${workspace}/out.txt)", "file-write", Journal.digest("a")));
        assertThat(other.kind()).isEqualTo(Recording.Kind.CONFLICT);
        assertThat(((Status.Pending) j.status("e", 1)).intent()).isEqualTo(intent("e", 1, "a"));
    }

    @Test void everyKindOfReceiptReadsBackAsItWasGiven() {
        Journal j = store.journal();
        List<Receipt> receipts = List.of(new Receipt.Acknowledged("\"é\uD834\uDD1E\""), new Receipt.Acknowledged(""),
                new Receipt.Failed("E-HOST-002", "the file could not be written"), new Receipt.Denied(null), new Receipt.Denied("no"),
                new Receipt.Cancelled(null), new Receipt.Cancelled("stopped by the host"));
        for (int n = 0; n < receipts.size(); n++) {
            j.record(intent("kinds", n + 1, "x"));
            assertThat(j.settle("kinds", n + 1, receipts.get(n))).isTrue();
        }
        List<Status> entries = j.entries("kinds", 0, 100);
        assertThat(entries).hasSize(receipts.size());
        for (int n = 0; n < receipts.size(); n++) assertThat(((Status.Settled) entries.get(n)).receipt()).isEqualTo(receipts.get(n));
    }

    @Test void aReceiptForAnEffectNeverRecordedIsRefused() {
        assertCode(() -> store.journal().settle("nobody", 1, new Receipt.Denied(null)), StoreCode.UNKNOWN_EFFECT);
        assertThat(store.journal().status("nobody", 1).kind()).isEqualTo(Status.Kind.UNRECORDED);
    }

    @Test void theJournalPagesInSequenceOrderAndIsForgotten() {
        Journal j = store.journal();
        for (long s = 12; s >= 1; s--) j.record(intent("paged", s, "x" + s));
        j.record(intent("other", 1, "y"));
        j.settle("paged", 3, new Receipt.Acknowledged("3"));
        List<Long> seen = new ArrayList<>();
        long after = 0;
        while (true) {
            List<Status> page = j.entries("paged", after, 5);
            if (page.isEmpty()) break;
            for (Status st : page) {
                long seq = st instanceof Status.Pending p ? p.intent().sequence() : ((Status.Settled) st).intent().sequence();
                seen.add(seq);
                after = seq;
            }
        }
        assertThat(seen).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
        assertThat(j.pending("paged")).hasSize(11);
        assertThat(j.forget("paged")).isEqualTo(12);
        assertThat(j.entries("paged", 0, 10)).isEmpty();
        assertThat(j.status("other", 1).kind()).isEqualTo(Status.Kind.PENDING);
    }

    @Test void aProcessThatRestoresFindsTheCrashWindowAndNeverDispatchesItAgain() {
        Journal.Intent i = intent("crashed", 4, "payload");
        try (FinchStore first = open(StoreLimits.DEFAULTS)) {
            assertThat(first.journal().record(i).kind()).isEqualTo(Recording.Kind.RECORDED);
            // The process stops here: dispatched or not, it never settled.
        }
        try (FinchStore second = open(StoreLimits.DEFAULTS)) {
            assertThat(second.journal().pending("crashed")).singleElement().extracting(Status.Pending::intent).isEqualTo(i);
            Recording r = second.journal().record(i);
            assertThat(r.kind()).isEqualTo(Recording.Kind.DUPLICATE);
            assertThat(((Recording.Duplicate) r).status().kind()).isEqualTo(Status.Kind.PENDING);
        }
    }

    @Test void concurrentRecordsOfOneEffectHaveExactlyOneDispatcher() throws Exception {
        int threads = 8, effects = 20;
        Map<Long, AtomicInteger> dispatchers = new ConcurrentHashMap<>();
        for (long s = 1; s <= effects; s++) dispatchers.put(s, new AtomicInteger());
        race(threads, t -> {
            for (long s = 1; s <= effects; s++) {
                if (store.journal().record(intent("together", s, "same")).kind() == Recording.Kind.RECORDED) {
                    dispatchers.get(s).incrementAndGet();
                    store.journal().settle("together", s, new Receipt.Acknowledged(Long.toString(s)));
                }
            }
        });
        assertThat(dispatchers.values()).allSatisfy(d -> assertThat(d.get()).isEqualTo(1));
        assertThat(store.journal().pending("together")).isEmpty();
    }

    @Test void theJournalRefusesWhatIsOverItsBounds() {
        assertCode(() -> new Journal.Intent("e", 0, "r", "o", "d"), StoreCode.BAD_KEY);
        assertCode(() -> store.journal().status("e", 0), StoreCode.BAD_KEY);
        assertCode(() -> store.journal().record(new Journal.Intent("e", 1, "r".repeat(StoreLimits.MAX_NOTE_CHARS + 1), "o", "d")), StoreCode.TOO_LARGE);
        store.journal().record(intent("e", 1, "x"));
        assertCode(() -> store.journal().settle("e", 1, new Receipt.Failed("E-X-001", "m".repeat(StoreLimits.MAX_NOTE_CHARS + 1))), StoreCode.TOO_LARGE);
        assertCode(() -> store.journal().settle("e", 1, new Receipt.Acknowledged("\"a\u0000\"")), StoreCode.BAD_KEY);
        assertCode(() -> store.journal().settle("e", 1, new Receipt.Denied("\uD800")), StoreCode.BAD_KEY);
        try (FinchStore small = open(StoreLimits.DEFAULTS.withMaxResultChars(4))) {
            assertCode(() -> small.journal().settle("e", 1, new Receipt.Acknowledged("12345")), StoreCode.TOO_LARGE);
            assertThat(small.journal().settle("e", 1, new Receipt.Acknowledged("1234"))).isTrue();
        }
        assertThat(Journal.digest("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    // ------------------------------------------------------------------------------------------------ grants

    private static Grant grant(String id, String spec, Scope scope) { return Grant.of(id, spec, scope).value(); }

    @Test void projectAndGlobalGrantsAreRememberedApart() {
        RememberedGrants g = store.grants();
        Instant at = Instant.parse("2026-12-01T10:15:30.123Z");
        g.remember(RememberedGrants.Remembered.project("/home/ada/repo", grant("read-src", "file.read(${workspace}/src/**)", Scope.PROJECT), at));
        g.remember(RememberedGrants.Remembered.project("/home/ada/other", grant("read-src", "fs.read(${workspace}/**)", Scope.PROJECT), at));
        g.remember(RememberedGrants.Remembered.global(grant("emit", "session.emit", Scope.GLOBAL), at));
        List<RememberedGrants.Remembered> repo = g.active(Scope.PROJECT, "/home/ada/repo");
        assertThat(repo).singleElement().satisfies(r -> {
            assertThat(r.projectId()).isEqualTo("/home/ada/repo");
            assertThat(r.grant().id()).isEqualTo("read-src");
            assertThat(r.grant().scope()).isEqualTo(Scope.PROJECT);
            assertThat(r.grant().spec().toString()).as("kept canonical").isEqualTo("fs.read(${workspace}/src/**)");
            assertThat(r.grantedAt()).isEqualTo(at);
        });
        assertThat(g.active(Scope.GLOBAL, null)).singleElement().satisfies(r -> {
            assertThat(r.projectId()).isNull();
            assertThat(r.grant().toString()).isEqualTo("emit: session.emit (global)");
        });
        assertThat(g.active(Scope.PROJECT, "/elsewhere")).isEmpty();
        assertThat(g.find(RememberedGrants.Key.project("/home/ada/other", "read-src")).orElseThrow().grant().spec().toString())
                .isEqualTo("fs.read(${workspace}/**)");
    }

    @Test void aRevocationIsRememberedUntilTheKeyIsGrantedAgain() {
        RememberedGrants g = store.grants();
        Instant at = Instant.parse("2026-12-01T10:00:00Z"), later = Instant.parse("2026-12-02T10:00:00Z");
        RememberedGrants.Key key = RememberedGrants.Key.project("p", "w");
        g.remember(RememberedGrants.Remembered.project("p", grant("w", "fs.write(${workspace}/out/**)", Scope.PROJECT), at));
        assertThat(g.revoke(key, later)).isTrue();
        assertThat(g.revoke(key, later)).isFalse();
        assertThat(g.revoke(RememberedGrants.Key.project("p", "unknown"), later)).isFalse();
        assertThat(g.active(Scope.PROJECT, "p")).isEmpty();
        assertThat(g.find(key)).isEmpty();
        assertThat(g.revoked(Scope.PROJECT, "p")).singleElement().satisfies(r -> {
            assertThat(r.revokedAt()).isEqualTo(later);
            assertThat(r.grant().grant().id()).isEqualTo("w");
        });
        assertThat(g.revocation(key)).isPresent();
        try (FinchStore reopened = open(StoreLimits.DEFAULTS)) {
            assertThat(reopened.grants().revocation(key)).as("a revocation outlives the store instance").isPresent();
            assertThat(reopened.grants().active(Scope.PROJECT, "p")).isEmpty();
        }
        g.remember(RememberedGrants.Remembered.project("p", grant("w", "fs.write(${workspace}/out/**)", Scope.PROJECT), later));
        assertThat(g.revocation(key)).isEmpty();
        assertThat(g.active(Scope.PROJECT, "p")).hasSize(1);
    }

    @Test void onlyProjectAndGlobalGrantsAreRemembered() {
        assertCode(() -> RememberedGrants.Key.project("p", "bad id!"), StoreCode.BAD_KEY);
        assertCode(() -> new RememberedGrants.Key(Scope.SESSION, null, "g"), StoreCode.BAD_KEY);
        assertCode(() -> new RememberedGrants.Key(Scope.GLOBAL, "p", "g"), StoreCode.BAD_KEY);
        assertCode(() -> RememberedGrants.Key.project("", "g"), StoreCode.BAD_KEY);
        assertCode(() -> RememberedGrants.Remembered.project("p", grant("g", "session.emit", Scope.SESSION), Instant.now()), StoreCode.BAD_KEY);
        assertCode(() -> store.grants().active(Scope.ONCE, null), StoreCode.BAD_KEY);
        try (FinchStore small = open(StoreLimits.DEFAULTS.withMaxGrantsPerScope(2))) {
            Instant at = Instant.now();
            small.grants().remember(RememberedGrants.Remembered.global(grant("a", "session.emit", Scope.GLOBAL), at));
            small.grants().remember(RememberedGrants.Remembered.global(grant("b", "session.emit", Scope.GLOBAL), at));
            small.grants().revoke(RememberedGrants.Key.global("b"), at);
            assertCode(() -> small.grants().remember(RememberedGrants.Remembered.global(grant("c", "session.emit", Scope.GLOBAL), at)), StoreCode.TOO_LARGE);
            small.grants().remember(RememberedGrants.Remembered.global(grant("b", "fs.read(${workspace}/**)", Scope.GLOBAL), at));
            small.grants().remember(RememberedGrants.Remembered.project("p", grant("c", "session.emit", Scope.PROJECT), at));
            assertThat(small.grants().active(Scope.GLOBAL, null)).extracting(r -> r.grant().id()).containsExactly("a", "b");
        }
    }

    // ------------------------------------------------------------------------------------------------ memory

    // ------------------------------------------------------------------------------------------------ schedules

    private static Schedules.Schedule schedule(String id, String policy, String when) {
        return new Schedules.Schedule(id, policy, when, "(say \"tick é\uD834\uDD1E\")", Instant.parse("2026-12-07T10:00:00.250Z"), 0, Optional.empty());
    }

    @Test void schedulesAreKeptListedInIdOrderRunAndRemoved() {
        Schedules sch = store.schedules();
        assertThat(sch.all()).isEmpty();
        Schedules.Schedule b = schedule("sch-b", "daily-report", "0 9 * * 1-5");
        Schedules.Schedule a = schedule("sch-a", "report", "PT10S");
        sch.add(b);
        sch.add(a);
        assertThat(sch.all()).containsExactly(a, b);
        assertThat(sch.find("sch-b")).contains(b);
        assertThat(sch.find("sch-c")).isEmpty();
        Instant at = Instant.parse("2026-12-08T09:00:00Z");
        assertThat(sch.ran("sch-b", 1, at)).isTrue();
        assertThat(sch.find("sch-b")).contains(b.ran(at));
        assertThat(sch.ran("sch-c", 1, at)).isFalse();
        // A run is recorded once: a second scheduler recording the same run finds it made.
        assertThat(sch.ran("sch-b", 1, at.plusSeconds(1))).isFalse();
        assertThat(sch.ran("sch-b", 3, at.plusSeconds(1))).isFalse();
        assertThat(sch.remove("sch-a")).isTrue();
        assertThat(sch.remove("sch-a")).isFalse();
        assertThat(sch.all()).containsExactly(b.ran(at));
        // Another store on the same database sees them: they outlive whoever wrote them.
        try (FinchStore other = open(StoreLimits.DEFAULTS)) {
            assertThat(other.schedules().find("sch-b")).contains(b.ran(at));
        }
    }

    @Test void aScheduleKeepsItsProgramsLanguageAndTheWordItCalls() {
        Schedules sch = store.schedules();
        Instant t = Instant.parse("2026-12-07T10:00:00Z");
        Schedules.Schedule norman = new Schedules.Schedule("sch-n", "report", "PT1M", "(print 1)", Optional.of("norman"), Optional.empty(), t, 0,
                Optional.empty());
        Schedules.Schedule word = new Schedules.Schedule("sch-w", "report", "*/5 * * * *", ": greet ( -- string ) \"hi\" ;\ngreet\n",
                Optional.of("forth"), Optional.of("greet"), t, 2, Optional.of(t.plusSeconds(600)));
        sch.add(norman);
        sch.add(word);
        assertThat(sch.all()).containsExactly(norman, word);
        try (FinchStore other = open(StoreLimits.DEFAULTS)) {
            assertThat(other.schedules().find("sch-w")).contains(word);
        }
        assertCode(() -> new Schedules.Schedule("s", "p", "PT1S", "x", Optional.of(""), Optional.empty(), t, 0, Optional.empty()), StoreCode.BAD_KEY);
        assertCode(() -> new Schedules.Schedule("s", "p", "PT1S", "x", Optional.empty(), Optional.of("w".repeat(201)), t, 0, Optional.empty()),
                StoreCode.BAD_KEY);
    }

    @Test void schedulesRefuseATakenIdBadKeysAndMoreThanTheStoreKeeps() {
        Schedules sch = store.schedules();
        sch.add(schedule("sch-a", "report", "PT10S"));
        assertCode(() -> sch.add(schedule("sch-a", "other", "PT1M")), StoreCode.BAD_KEY);
        assertThat(sch.find("sch-a").orElseThrow().policy()).isEqualTo("report");
        assertCode(() -> schedule("", "report", "PT1S"), StoreCode.BAD_KEY);
        assertCode(() -> schedule("sch-z", "x".repeat(201), "PT1S"), StoreCode.BAD_KEY);
        assertCode(() -> new Schedules.Schedule("s", "p", "PT1S", "x".repeat(Schedules.Schedule.MAX_PROGRAM_CHARS + 1), Instant.now(), 0,
                Optional.empty()), StoreCode.TOO_LARGE);
        assertCode(() -> sch.ran("sch-a", 0, Instant.now()), StoreCode.BAD_KEY);
        try (FinchStore small = open(StoreLimits.DEFAULTS.withMaxSchedules(2))) {
            small.schedules().add(schedule("sch-b", "report", "PT10S"));
            assertCode(() -> small.schedules().add(schedule("sch-c", "report", "PT10S")), StoreCode.TOO_LARGE);
            small.schedules().remove("sch-b");
            small.schedules().add(schedule("sch-c", "report", "PT10S"));
        }
        assertThat(sch.all()).extracting(Schedules.Schedule::id).containsExactly("sch-a", "sch-c");
    }

    @Test void aTransactionKeepsASchedulesWithItsOtherWritesOrNone() {
        assertThatThrownBy(() -> store.transaction(tx -> {
            tx.schedules().add(schedule("sch-t", "report", "PT10S"));
            throw new IllegalStateException("the work failed");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(store.schedules().find("sch-t")).isEmpty();
        store.transaction(tx -> {
            tx.schedules().add(schedule("sch-t", "report", "PT10S"));
            return null;
        });
        assertThat(store.schedules().find("sch-t")).isPresent();
    }

    @Test void memoryKeepsJsonValuesPerTreeAndOwner() throws Exception {
        Memory m = store.memory();
        JsonNode note = json("{\"text\":\"buy milk é\uD834\uDD1E\",\"n\":12345678901234567890,\"f\":1.5,\"l\":[true,null,\"x\"]}");
        Memory.Key k = Memory.Space.project("repo").at("notes/today");
        assertThat(m.get(k)).isEmpty();
        m.put(k, note);
        assertThat(m.get(k)).contains(note);
        m.put(Memory.Space.session("s1").at("notes/today"), json("1"));
        m.put(Memory.Space.global().at("notes/today"), NullNode.getInstance());
        m.put(Memory.Space.project("other").at("notes/today"), json("\"other\""));
        assertThat(m.get(k)).contains(note);
        assertThat(m.get(Memory.Space.session("s1").at("notes/today"))).contains(json("1"));
        assertThat(m.get(Memory.Space.global().at("notes/today"))).contains(NullNode.getInstance());
        m.put(k, json("[]"));
        assertThat(m.get(k)).contains(json("[]"));
        assertThat(m.delete(k)).isTrue();
        assertThat(m.delete(k)).isFalse();
        assertThat(m.get(k)).isEmpty();
        assertThat(m.get(Memory.Space.project("other").at("notes/today"))).contains(json("\"other\""));
    }

    @Test void aMemoryPathIsAConcreteRelativePath() {
        assertThat(Memory.Space.global().at("a/b").path()).isEqualTo("a/b");
        for (String bad : List.of("", "/a", "a//b", "../a", "a/../b", "a/*", "a?", "**", "a/", "a\u0000b")) {
            assertCode(() -> Memory.Space.global().at(bad), StoreCode.BAD_KEY);
        }
        assertCode(() -> Memory.Space.global().at("x".repeat(StoreLimits.MAX_PATH_BYTES + 1)), StoreCode.TOO_LARGE);
        assertCode(() -> new Memory.Space(dev.finch.host.MemoryWrites.Tree.GLOBAL, "owner"), StoreCode.BAD_KEY);
        assertCode(() -> Memory.Space.session(""), StoreCode.BAD_KEY);
        assertCode(() -> Memory.Space.project(null), StoreCode.BAD_KEY);
        assertThat(dev.finch.host.MemoryWrites.Tree.bySpelling("project")).contains(dev.finch.host.MemoryWrites.Tree.PROJECT);
    }

    @Test void aListingIsThePrefixAndWhatContinuesItWithASlash() throws Exception {
        Memory.Space space = Memory.Space.session("s");
        for (String p : List.of("a", "a/b", "a/b/c", "ab", "a0", "a.b", "b", "a/\uD834\uDD1E", "a/\uFF21")) space.at(p);
        for (String p : List.of("a", "a/b", "a/b/c", "ab", "a0", "a.b", "b", "a/\uD834\uDD1E", "a/\uFF21")) store.memory().put(space.at(p), json("0"));
        store.memory().put(Memory.Space.session("t").at("a/x"), json("0"));
        assertThat(store.memory().list(space, "a", 100)).isEqualTo(new Memory.Listing(List.of("a", "a/b", "a/b/c", "a/\uFF21", "a/\uD834\uDD1E"), false));
        assertThat(store.memory().list(space, "a/b", 100).paths()).containsExactly("a/b", "a/b/c");
        assertThat(store.memory().list(space, "", 100).paths()).containsExactly("a", "a.b", "a/b", "a/b/c", "a/\uFF21", "a/\uD834\uDD1E", "a0", "ab", "b");
        assertThat(store.memory().list(space, "", 4)).isEqualTo(new Memory.Listing(List.of("a", "a.b", "a/b", "a/b/c"), true));
        assertThat(store.memory().list(space, "zz", 4)).isEqualTo(new Memory.Listing(List.of(), false));
        assertCode(() -> store.memory().list(space, "a/*", 4), StoreCode.BAD_KEY);
        assertCode(() -> store.memory().list(space, "a", 0), StoreCode.BAD_KEY);
        assertCode(() -> store.memory().list(space, "a", StoreLimits.DEFAULTS.maxListing() + 1), StoreCode.TOO_LARGE);
        assertThat(store.memory().clear(space)).isEqualTo(9);
        assertThat(store.memory().list(space, "", 10).paths()).isEmpty();
        assertThat(store.memory().list(Memory.Space.session("t"), "", 10).paths()).containsExactly("a/x");
    }

    @Test void memoryRefusesValuesAndTreesOverTheirBounds() throws Exception {
        try (FinchStore small = open(StoreLimits.DEFAULTS.withMaxValueBytes(12).withMaxEntriesPerTree(3))) {
            Memory m = small.memory();
            Memory.Space s = Memory.Space.project("p");
            m.put(s.at("v"), json("\"1234567890\"")); // 12 bytes of JSON
            assertCode(() -> m.put(s.at("v"), json("\"12345678901\"")), StoreCode.TOO_LARGE);
            assertCode(() -> m.put(s.at("v"), json("\"éééééé\"")), StoreCode.TOO_LARGE); // 14 bytes, 8 chars
            assertThat(m.get(s.at("v"))).contains(json("\"1234567890\""));
            m.put(s.at("w"), json("1"));
            m.put(s.at("x"), json("2"));
            assertCode(() -> m.put(s.at("y"), json("3")), StoreCode.TOO_LARGE);
            m.put(s.at("x"), json("4"));
            m.put(Memory.Space.project("q").at("y"), json("3"));
            assertThat(m.list(s, "", 10).paths()).containsExactly("v", "w", "x");
            assertCode(() -> m.put(s.at("v"), null), StoreCode.BAD_KEY);
            assertCode(() -> m.put(s.at("v"), JSON.getNodeFactory().textNode("\uD800")), StoreCode.BAD_KEY);
            assertCode(() -> s.at("a\uDC00"), StoreCode.BAD_KEY);
            m.put(s.at("v"), JSON.getNodeFactory().textNode("\u0000"));  // JSON writes it as an escape: kept
            assertThat(m.get(s.at("v")).orElseThrow().asText()).isEqualTo("\u0000");
        }
    }

    // ------------------------------------------------------------------------------------------ transactions

    @Test void aTransactionCommitsEveryWriteTogether() throws Exception {
        JsonNode value = json("{\"k\":1}");
        String result = store.transaction(tx -> {
            tx.memory().put(Memory.Space.session("s").at("n"), value);
            tx.images().put("s", "image");
            assertThat(tx.claims().claim("e", 1)).isTrue();
            tx.journal().record(intent("e", 1, "x"));
            tx.journal().settle("e", 1, new Receipt.Acknowledged("1"));
            tx.grants().remember(RememberedGrants.Remembered.global(grant("g", "session.emit", Scope.GLOBAL), Instant.now()));
            assertThat(tx.memory().get(Memory.Space.session("s").at("n"))).as("a transaction reads its own writes").contains(value);
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(store.memory().get(Memory.Space.session("s").at("n"))).contains(value);
        assertThat(store.images().get("s")).isPresent();
        assertThat(store.claims().isClaimed("e", 1)).isTrue();
        assertThat(store.journal().status("e", 1).kind()).isEqualTo(Status.Kind.SETTLED);
        assertThat(store.grants().find(RememberedGrants.Key.global("g"))).isPresent();
    }

    @Test void aTransactionWhoseWorkFailsWritesNothing() throws Exception {
        store.memory().put(Memory.Space.session("s").at("kept"), json("1"));
        IllegalStateException boom = new IllegalStateException("the run failed");
        assertThatThrownBy(() -> store.transaction(tx -> {
            tx.memory().put(Memory.Space.session("s").at("n"), json("2"));
            tx.memory().put(Memory.Space.session("s").at("kept"), json("3"));
            tx.memory().delete(Memory.Space.session("s").at("kept"));
            tx.images().put("s", "image");
            tx.claims().claim("e", 1);
            tx.journal().record(intent("e", 1, "x"));
            throw boom;
        })).isSameAs(boom);
        assertThat(store.memory().get(Memory.Space.session("s").at("n"))).isEmpty();
        assertThat(store.memory().get(Memory.Space.session("s").at("kept"))).contains(json("1"));
        assertThat(store.images().get("s")).isEmpty();
        assertThat(store.claims().isClaimed("e", 1)).as("a claim rolled back is free again").isFalse();
        assertThat(store.claims().claim("e", 1)).isTrue();
        assertThat(store.journal().status("e", 1).kind()).isEqualTo(Status.Kind.UNRECORDED);
    }

    @Test void aRefusalInsideATransactionUndoesItsEarlierWrites() throws Exception {
        try (FinchStore small = open(StoreLimits.DEFAULTS.withMaxValueBytes(4))) {
            assertCode(() -> small.transaction(tx -> {
                tx.memory().put(Memory.Space.global().at("a"), json("1"));
                tx.memory().put(Memory.Space.global().at("b"), json("\"too long\""));
                return null;
            }), StoreCode.TOO_LARGE);
            assertThat(small.memory().get(Memory.Space.global().at("a"))).isEmpty();
        }
    }

    @Test void transactionsAreNotNestedAndTheirViewEndsWithThem() {
        assertCode(() -> store.transaction(tx -> store.transaction(inner -> 1)), StoreCode.NESTED);
        assertCode(() -> store.transaction(tx -> store.images().get("s")), StoreCode.NESTED);
        var view = store.transaction(tx -> tx);
        assertCode(() -> view.images().get("s"), StoreCode.CLOSED);
        assertThat(store.images().put("s", "after")).as("the store is usable after a refused nesting").isEqualTo(1);
    }

    @Test void concurrentTransactionsEachCommitWhole() throws Exception {
        int threads = 6, each = 5;
        race(threads, t -> {
            for (int n = 0; n < each; n++) {
                int k = n;
                store.transaction(tx -> {
                    tx.memory().put(Memory.Space.session("t" + t).at("n" + k), JSON.valueToTree(k));
                    tx.claims().claim("tx-" + t, k + 1);
                    return null;
                });
            }
        });
        for (int t = 0; t < threads; t++) {
            assertThat(store.memory().list(Memory.Space.session("t" + t), "", 100).paths()).hasSize(each);
            for (int k = 1; k <= each; k++) assertThat(store.claims().isClaimed("tx-" + t, k)).isTrue();
        }
    }

    // ------------------------------------------------------------------------------------------------ closing

    @Test void aClosedStoreRefusesEveryCall() {
        FinchStore closing = open(StoreLimits.DEFAULTS);
        assertThat(closing.description()).isNotBlank();
        closing.close();
        closing.close();
        assertCode(() -> closing.images().get("s"), StoreCode.CLOSED);
        assertCode(() -> closing.claims().claim("e", 1), StoreCode.CLOSED);
        assertCode(() -> closing.journal().status("e", 1), StoreCode.CLOSED);
        assertCode(() -> closing.grants().active(Scope.GLOBAL, null), StoreCode.CLOSED);
        assertCode(() -> closing.memory().get(Memory.Space.global().at("a")), StoreCode.CLOSED);
        assertCode(() -> closing.transaction(tx -> 1), StoreCode.CLOSED);
    }

    // ---------------------------------------------------------------------------------------------- helpers

    /** Runs {@code body(t)} on {@code threads} threads released at once; rethrows the first failure. */
    protected static void race(int threads, ThreadBody body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                done.add(pool.submit(() -> {
                    go.await();
                    body.run(id);
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) f.get(5, TimeUnit.MINUTES); // a hang guard, not a time bound
        } finally {
            pool.shutdownNow();
        }
    }

    /** One thread's part of a race. */
    @FunctionalInterface
    protected interface ThreadBody {
        void run(int thread) throws Exception;
    }

    /**
     * {@code call} fails with a store exception of {@code code}: phase host, a message in Finch's words (no SQL, no
     * driver or Java class name).
     */
    protected static StoreException assertCode(ThrowingCallable call, StoreCode code) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(call);
        assertThat(t).as("expected %s", code.code()).isInstanceOf(StoreException.class);
        StoreException e = (StoreException) t;
        assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
        assertThat(e.diagnostic().code()).isEqualTo(code.code());
        assertThat(e.diagnostic().phase()).isEqualTo(Phase.HOST);
        assertThat(e.getMessage()).doesNotContain("org.", "java.", "Exception", "jdbc:", "SQLITE_", "ERROR:", "Hikari");
        return e;
    }
}
