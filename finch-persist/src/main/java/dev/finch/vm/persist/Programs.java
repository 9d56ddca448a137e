package dev.finch.vm.persist;

import dev.finch.vm.engine.Remaker;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The programs whose closure literals and quotations saved values may name — a session's earlier submissions and a
 * paused run's own program — each by a stable id, as {@link ValueCodec} saves a closure ({@code {"program":id,
 * "closure":i}}) or an execution token ({@code {"program":id,"quote":i}}). A program's literals are numbered in a fixed
 * order (main's body, then each word's, each depth first, nested literals included).
 *
 * <p>A program is reached only when a value needs it: saving indexes the programs whose modules are at hand (a value
 * can only have been made by one of those), restoring verifies a program again only when a value names one of its
 * literals. Saving records which programs its values named ({@link #named()}), so a session image keeps exactly the
 * submissions its values still need. Also the table of handles (fibers, tasks) one save or restore has met, so copies
 * of one handle stay one.
 */
public final class Programs implements ValueCodec.Closures {
    /** The id of a paused run's own program. */
    public static final long RUN = 0;

    /** One program: its id, its verified module (made when first asked for, if need be) and what remakes its values. */
    public interface Source {
        long id();

        /** Whether its module is at hand without verifying anything. */
        boolean available();

        /** Its verified module. */
        CheckedModule module();

        /** What remakes its closures and execution tokens; null when only saving. */
        Remaker remaker();
    }

    /** A source whose module is at hand. */
    public record Known(long id, CheckedModule module, Remaker remaker) implements Source {
        @Override public boolean available() { return true; }
    }

    /** A program's literals and quotations, in their fixed order. */
    private record Sites(List<CheckedWord> literals, List<Checked.QuoteNode> quotes) { }

    private final Map<Long, Source> sources = new LinkedHashMap<>();
    private final Map<Long, Sites> sites = new HashMap<>();
    /** By identity: a saved closure's body is the very literal of the module it was compiled from. */
    private Map<CheckedWord, ValueCodec.Site> literalIndex;
    private Map<Checked.QuoteNode, ValueCodec.Site> quoteIndex;
    private final Set<Long> named = new TreeSet<>();
    private final Map<Object, Object> handles = new HashMap<>();
    private final java.util.function.Function<dev.finch.vm.value.Fiber, dev.finch.vm.value.Fiber.Snapshot> fiberState;

    /** Programs whose fibers are saved as they are now. */
    public Programs() { this(null); }

    /**
     * Programs saving each fiber in the state {@code fiberState} gives (the committed view beside a paused run,
     * {@code Suspension.committedFibers}); null saves fibers as they are.
     */
    public Programs(java.util.function.Function<dev.finch.vm.value.Fiber, dev.finch.vm.value.Fiber.Snapshot> fiberState) {
        this.fiberState = fiberState;
    }

    /** Adds a program (a later one of the same id replaces it). */
    public Programs add(Source source) {
        sources.put(source.id(), source);
        sites.remove(source.id());
        literalIndex = null;
        quoteIndex = null;
        return this;
    }

    /**
     * Where the {@code n}th closure literal of all the programs is, counting each program's in the order they were added:
     * how the first session images named one (by its place among them all). Null when there are not that many.
     */
    public ValueCodec.Site nthLiteral(int n) {
        int left = n;
        for (Source s : sources.values()) {
            if (s.id() == RUN) continue;
            int count = sites(s.id()).literals().size();
            if (left < count) return new ValueCodec.Site(s.id(), left);
            left -= count;
        }
        return null;
    }

    /** The ids of the programs whose literals or quotations the values saved so far named. */
    public Set<Long> named() { return java.util.Collections.unmodifiableSet(named); }

    private Sites sites(long id) {
        Sites s = sites.get(id);
        if (s != null) return s;
        Source source = sources.get(id);
        if (source == null) return null;
        List<CheckedWord> literals = new ArrayList<>();
        List<Checked.QuoteNode> quotes = new ArrayList<>();
        CheckedModule m = source.module();
        collect(m.main().body(), literals, quotes);
        for (CheckedWord w : m.words()) collect(w.body(), literals, quotes);
        s = new Sites(literals, quotes);
        sites.put(id, s);
        return s;
    }

    private static void collect(Checked.CheckedBlock block, List<CheckedWord> literals, List<Checked.QuoteNode> quotes) {
        for (Checked.Node n : block.nodes()) {
            boolean handled = switch (n.kind()) {
                case CLOSURE -> {
                    CheckedWord body = ((Checked.ClosureNode) n).body();
                    literals.add(body);
                    collect(body.body(), literals, quotes);
                    yield true;
                }
                case QUOTE -> {
                    quotes.add((Checked.QuoteNode) n);
                    yield true;
                }
                case PUSH, CALL, IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> {
                    for (Checked.CheckedBlock child : Checked.children(n)) collect(child, literals, quotes);
                    yield true;
                }
            };
        }
    }

    /** Indexes the literals and quotations of every program whose module is at hand (saving). */
    private void index() {
        if (literalIndex != null) return;
        literalIndex = new IdentityHashMap<>();
        quoteIndex = new IdentityHashMap<>();
        for (Source s : sources.values()) {
            if (!s.available()) continue;
            Sites at = sites(s.id());
            for (int i = 0; i < at.literals().size(); i++) literalIndex.putIfAbsent(at.literals().get(i), new ValueCodec.Site(s.id(), i));
            for (int i = 0; i < at.quotes().size(); i++) quoteIndex.putIfAbsent(at.quotes().get(i), new ValueCodec.Site(s.id(), i));
        }
    }

    @Override public ValueCodec.Site locate(CheckedWord body) {
        index();
        ValueCodec.Site at = literalIndex.get(body);
        if (at != null) named.add(at.program());
        return at;
    }

    @Override public ValueCodec.Site locateQuote(Checked.QuoteNode site) {
        index();
        ValueCodec.Site at = quoteIndex.get(site);
        if (at != null) named.add(at.program());
        return at;
    }

    @Override public CheckedWord body(ValueCodec.Site at) {
        at = numbered(at);
        Sites s = sites(at.program());
        return s == null || at.index() < 0 || at.index() >= s.literals().size() ? null : s.literals().get(at.index());
    }

    @Override public Object make(ValueCodec.Site at, Object[] captures) {
        at = numbered(at);
        CheckedWord body = body(at);
        Remaker make = body == null ? null : sources.get(at.program()).remaker();
        if (make == null) throw new Continuations.Refused("closures are remade only when a run or session is restored");
        return make.closure(body, captures);
    }

    @Override public Object quote(ValueCodec.Site at) {
        Sites s = sites(at.program());
        if (s == null || at.index() < 0 || at.index() >= s.quotes().size()) return null;
        Remaker make = sources.get(at.program()).remaker();
        if (make == null) throw new Continuations.Refused("execution tokens are remade only when a run or session is restored");
        return make.quote(s.quotes().get(at.index()));
    }

    /** A site as the first images named one (no program: a place among all literals) as a program's own. */
    private ValueCodec.Site numbered(ValueCodec.Site at) {
        if (at.program() >= 0) return at;
        ValueCodec.Site found = nthLiteral(at.index());
        return found == null ? at : found;
    }

    @Override public Map<Object, Object> handles() { return handles; }

    @Override public dev.finch.vm.value.Fiber.Snapshot stateOf(dev.finch.vm.value.Fiber f) {
        return fiberState == null ? f.snapshot() : fiberState.apply(f);
    }
}
