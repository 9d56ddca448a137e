package dev.finch;

import dev.finch.vm.engine.Remaker;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.checked.Row;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeNames;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CompiledWord;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.persist.Programs;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The committed submissions a session's dictionary was built from, as much of them as its images need (issue 33).
 *
 * <p>Each {@link Definition} is a submission that defined words, or whose closure literals made values the session
 * still holds. It keeps its text and only the part of the session it was verified against that it names — the
 * signatures of the words it calls or redefines, the types of the constants it reads or redefines, the named types,
 * the stack's types — so that it lowers and verifies again the same way without the rest of the session: an image is
 * linear in what the session holds. It records which earlier definition made each word it links to ({@code uses}),
 * so an image keeps a definition only while a word of the dictionary, a value, or a kept definition still needs it
 * ({@link #write}).
 *
 * <p>A restored definition is verified and compiled again only when first needed ({@link CompiledWord#deferred}): a
 * submission calls one of its words, its source is inspected, a value names one of its literals, or a paused run is
 * continued through it. An image written by another build of Finch ({@link EngineFingerprint}), or restored by a Finch
 * built to verify restored history, has every definition rebuilt at {@code restore}, which refuses one that no longer
 * verifies the same way.
 */
final class SessionHistory {
    /** A submission as it was lowered and verified: what a run or a call was made from, and what a paused one is saved as. */
    record Submitted(String text, String language, String sourceId, Environment env, boolean call, CheckedModule module) { }

    /** A word a definition made: its signature and whether a call of it may suspend. */
    record Made(Type.Fn signature, boolean suspends) { }

    /** Why a saved definition cannot be rebuilt: refused at restore, or at its first use when restored lazily. */
    static final class Unrebuildable extends RuntimeException {
        Unrebuildable(String message) { super(message, null, false, false); }
    }

    /** One committed submission of the history. */
    final class Definition implements Programs.Source {
        final long id;
        final String text;
        final String language;
        final String sourceId;
        /** The words it made, in order. */
        final Map<String, Made> made;
        /** The dictionary words it links to, by the definition that made the version it links to. */
        final Map<String, Long> uses;
        /** The signatures of the words it redefines, as they were before it (part of what it was verified against). */
        final Map<String, Type.Fn> shadows;
        /** The types of the constants it reads or defines that existed before it, and every named type. */
        final Map<String, Type> constants;
        /** The types on the stack when it ran. */
        final Row stack;
        /** Its words as the dictionary holds them: compiled here, or deferred until first needed. */
        final Map<String, CompiledWord> words;
        /** Its saved form, for its content key; null for one committed in this process. */
        private final JsonNode saved;
        /** Its content's digest, links included ({@link RebuildCache}), made when first needed. */
        private String key;
        private volatile CheckedModule module;
        private volatile Remaker remaker;

        private Definition(long id, String text, String language, String sourceId, Map<String, Made> made, Map<String, Long> uses,
                           Map<String, Type.Fn> shadows, Map<String, Type> constants, Row stack, Map<String, CompiledWord> words,
                           CheckedModule module, JsonNode saved) {
            this.id = id;
            this.text = text;
            this.language = language;
            this.sourceId = sourceId;
            this.made = made;
            this.uses = uses;
            this.shadows = shadows;
            this.constants = constants;
            this.stack = stack;
            this.words = words;
            this.module = module;
            this.saved = saved;
        }

        @Override public long id() { return id; }

        @Override public boolean available() { return module != null; }

        /** Its verified module: verified again from its text when it was restored. */
        @Override public CheckedModule module() {
            CheckedModule m = module;
            if (m == null) {
                synchronized (SessionHistory.this) {
                    if (module == null) module = verify(this);
                    m = module;
                }
            }
            return m;
        }

        /** What remakes its closures and execution tokens: compiled again (with what it links to) when restored. */
        @Override public Remaker remaker() {
            if (remaker == null) rebuild(this);
            return remaker;
        }

        /** What it was verified against: its part of the session it ran in. */
        Environment environment() {
            Map<String, Type.Fn> sigs = new LinkedHashMap<>(shadows);
            java.util.Set<String> pausing = new java.util.HashSet<>();
            for (var u : uses.entrySet()) {
                Made m = byId.get(u.getValue()).made.get(u.getKey());
                sigs.put(u.getKey(), m.signature());
                if (m.suspends() && !dev.finch.ir.vocab.WordSpec.maySuspend(m.signature())) pausing.add(u.getKey());
            }
            return new Environment(vocabulary(), sigs, constants, stack).withPausing(pausing)
                    .withBudget(dev.finch.ir.limit.CompileBudget.of(finch.compileLimits(), Long.MAX_VALUE, () -> false));
        }
    }

    private final Finch finch;
    /** The session: rebuilt definitions link their vocabulary words against its library as it is now. */
    private final Session session;
    private final List<Definition> definitions = new ArrayList<>();
    private final Map<Long, Definition> byId = new HashMap<>();
    /** The definition that made each word of the dictionary now. */
    private final Map<String, Long> definedBy = new HashMap<>();
    private long lastId;
    /** How many definitions were compiled again (restored ones, when first needed or at an eager restore). */
    private int rebuilt;

    SessionHistory(Finch finch, Session session) {
        this.finch = finch;
        this.session = session;
    }

    private dev.finch.vm.word.Library library() { return session.committedState().library(); }

    private Vocabulary vocabulary() { return library().vocabulary(); }

    // ------------------------------------------------------------------------------------------------- commit

    /**
     * Records a committed submission that defined words or may have left values its literals made: {@code words} is
     * the dictionary it committed (holding its words).
     */
    synchronized void commit(Submitted s, Map<String, CompiledWord> words) {
        Definition d = definition(++lastId, s, words);
        definitions.add(d);
        byId.put(d.id, d);
        for (String name : d.made.keySet()) definedBy.put(name, d.id);
    }

    /** The definition {@code s} is, with the given id, linking to the dictionary as it is now. */
    private Definition definition(long id, Submitted s, Map<String, CompiledWord> dictionary) {
        CheckedModule m = s.module();
        Names names = Names.of(m);
        Environment full = s.env();
        Map<String, Long> uses = new LinkedHashMap<>();
        for (String w : names.calls) {
            Long by = definedBy.get(w);
            if (by == null) throw new IllegalStateException("no definition made the dictionary word " + w);
            uses.put(w, by);
        }
        Map<String, Type.Fn> shadows = new LinkedHashMap<>();
        for (CheckedWord w : m.words()) {
            Type.Fn before = full.words().get(w.name());
            if (before != null && !uses.containsKey(w.name())) shadows.put(w.name(), before);
        }
        Map<String, Type> constants = new LinkedHashMap<>();
        for (var c : full.constants().entrySet()) {
            if (names.constants.contains(c.getKey()) || m.newConstants().containsKey(c.getKey()) || c.getKey().startsWith(TypeNames.CONSTANT_PREFIX)) {
                constants.put(c.getKey(), c.getValue());
            }
        }
        Map<String, Made> made = new LinkedHashMap<>();
        Map<String, CompiledWord> words = new LinkedHashMap<>();
        for (CheckedWord w : m.words()) {
            made.put(w.name(), new Made(w.signature(), w.suspends()));
            CompiledWord c = dictionary.get(w.name());
            if (c != null) words.put(w.name(), c);
        }
        return new Definition(id, s.text(), s.language(), s.sourceId(), made, uses, shadows, constants, Row.of(full.stack()), words, m, null);
    }

    /** The names a module reaches outside itself: the dictionary words it calls or quotes, and the constants it reads. */
    private record Names(Set<String> calls, Set<String> constants) {
        static Names of(CheckedModule m) {
            Set<String> local = new java.util.HashSet<>();
            for (CheckedWord w : m.words()) local.add(w.name());
            Names n = new Names(new LinkedHashSet<>(), new LinkedHashSet<>());
            ArrayDeque<Checked.CheckedBlock> todo = new ArrayDeque<>();
            todo.add(m.main().body());
            for (CheckedWord w : m.words()) todo.add(w.body());
            while (!todo.isEmpty()) {
                for (Checked.Node node : todo.poll().nodes()) {
                    boolean handled = switch (node.kind()) {
                        case CALL -> {
                            n.target(((Checked.CallNode) node).target(), local);
                            yield true;
                        }
                        case QUOTE -> {
                            n.target(((Checked.QuoteNode) node).target(), local);
                            yield true;
                        }
                        case CLOSURE -> {
                            todo.add(((Checked.ClosureNode) node).body().body());
                            yield true;
                        }
                        case IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD -> {
                            todo.addAll(Checked.children(node));
                            yield true;
                        }
                        case PUSH, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> true;
                    };
                }
            }
            return n;
        }

        private void target(Checked.Target t, Set<String> local) {
            switch (t.kind()) {
                case WORD -> {
                    if (!local.contains(t.name())) calls.add(t.name());
                }
                case CONSTANT_REF -> constants.add(t.name());
                case BUILTIN -> { }
            }
        }
    }

    /** The dictionary words a paused submission (not yet committed) links to, by the definitions that made them. */
    synchronized Set<Long> usedBy(CheckedModule m) {
        Set<Long> out = new java.util.TreeSet<>();
        for (String w : Names.of(m).calls) {
            Long by = definedBy.get(w);
            if (by != null) out.add(by);
        }
        return out;
    }

    /**
     * Of the dictionary words {@code calls} that the committed word {@code word} calls, the first whose version there
     * is not the one {@code word} links to (it was redefined since), if any: a word taken apart from the session by
     * name ({@code schedule-create}) would otherwise link to the newer one.
     */
    synchronized Optional<String> redefinedSince(String word, Set<String> calls) {
        Long id = definedBy.get(word);
        Definition d = id == null ? null : byId.get(id);
        if (d == null) return Optional.empty();
        for (String n : calls) {
            Long linked = d.made.containsKey(n) ? Long.valueOf(d.id) : d.uses.get(n);
            if (linked != null && !linked.equals(definedBy.get(n))) return Optional.of(n);
        }
        return Optional.empty();
    }

    // ----------------------------------------------------------------------------------------------- images

    /** The programs whose literals the session's values (and a paused run's) may name, for saving or restoring them. */
    synchronized Programs programs() {
        Programs p = new Programs();
        for (Definition d : definitions) p.add(d);
        return p;
    }

    /**
     * The definitions an image keeps, as JSON: those that made a word of the dictionary, those whose literals the saved
     * values named ({@code named}), those a paused run links to ({@code pausedUses}), and every one those link to —
     * in order, each with only its part of the session.
     */
    synchronized ArrayNode write(Set<Long> named, Set<Long> pausedUses) {
        Set<Long> live = new java.util.HashSet<>(definedBy.values());
        live.addAll(named);
        live.addAll(pausedUses);
        ArrayDeque<Long> todo = new ArrayDeque<>(live);
        while (!todo.isEmpty()) {
            Definition d = byId.get(todo.poll());
            if (d == null) continue;
            for (Long u : d.uses.values()) if (live.add(u)) todo.add(u);
        }
        // Jackson is reached only here (and in read): a session that is never saved loads none of it.
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        Row previous = Row.of(List.of());
        for (Definition d : definitions) {
            if (!live.contains(d.id)) continue;
            ObjectNode o = out.addObject();
            o.put("id", d.id).put("text", d.text);
            // The language only when the text does not say it by the contract's rule (a '(' first is Lisp, else Co-Forth).
            if (!Language.infer(d.text).spelling().equals(d.language)) o.put("language", d.language);
            o.put("source_id", d.sourceId);
            ArrayNode made = o.putArray("made");
            d.made.forEach((name, m) -> {
                ArrayNode w = made.addArray().add(name).add(m.signature().toString());
                if (m.suspends()) w.add(true);
            });
            if (!d.uses.isEmpty()) {
                ObjectNode uses = o.putObject("uses");
                d.uses.forEach(uses::put);
            }
            if (!d.shadows.isEmpty()) {
                ObjectNode shadows = o.putObject("shadows");
                d.shadows.forEach((n, t) -> shadows.put(n, t.toString()));
            }
            if (!d.constants.isEmpty()) {
                ObjectNode constants = o.putObject("constants");
                d.constants.forEach((n, t) -> constants.put(n, t.toString()));
            }
            // The stack's types as a change from the previous definition's: a deep stack is not written again each time.
            int keep = Row.sharedPrefix(previous, d.stack);
            if (keep != previous.size() || keep != d.stack.size()) {
                ObjectNode stack = o.putObject("stack");
                stack.put("keep", keep);
                ArrayNode push = stack.putArray("push");
                java.util.Iterator<Type> types = d.stack.listIterator(keep);
                while (types.hasNext()) push.add(types.next().toString());
            }
            previous = d.stack;
        }
        return out;
    }

    /**
     * Reads the definitions an image kept, into this (empty) history, and answers the dictionary they make: each word
     * deferred until first needed — or, when {@code eager}, every definition verified and compiled again now, in
     * order (an image of another build, or a Finch that verifies restored history), and refused if one does not
     * rebuild the same way.
     */
    synchronized Map<String, CompiledWord> read(JsonNode saved, boolean eager) {
        Map<String, Type.Fn> signatures = new HashMap<>();
        Map<String, Type> types = new HashMap<>();
        Map<String, CompiledWord> dictionary = new LinkedHashMap<>();
        Row stack = Row.of(List.of());
        for (JsonNode o : saved) {
            long id = o.get("id").asLong();
            if (id <= lastId) throw new Unrebuildable("the image's definitions are out of order");
            Map<String, Made> made = new LinkedHashMap<>();
            Map<String, CompiledWord> words = new LinkedHashMap<>();
            List<String> order = new ArrayList<>();
            for (JsonNode w : o.get("made")) {
                String name = w.get(0).asText();
                Type.Fn sig = signatures.computeIfAbsent(w.get(1).asText(), TypeSyntax::parseSignature);
                made.put(name, new Made(sig, w.path(2).asBoolean(false)));
                order.add(name);
            }
            Map<String, Long> uses = new LinkedHashMap<>();
            o.path("uses").fields().forEachRemaining(u -> uses.put(u.getKey(), u.getValue().asLong()));
            for (var u : uses.entrySet()) {
                Definition by = byId.get(u.getValue());
                if (by == null || !by.made.containsKey(u.getKey())) throw new Unrebuildable("a definition links to a word the image does not hold");
            }
            Map<String, Type.Fn> shadows = new LinkedHashMap<>();
            o.path("shadows").fields().forEachRemaining(f -> shadows.put(f.getKey(), signatures.computeIfAbsent(f.getValue().asText(), TypeSyntax::parseSignature)));
            Map<String, Type> constants = new LinkedHashMap<>();
            o.path("constants").fields().forEachRemaining(f -> constants.put(f.getKey(), types.computeIfAbsent(f.getValue().asText(), TypeSyntax::parse)));
            JsonNode st = o.get("stack");
            if (st != null) {
                int keep = st.get("keep").asInt();
                if (keep < 0 || keep > stack.size()) throw new Unrebuildable("a definition's stack does not follow the one before it");
                List<Type> row = new ArrayList<>(stack.subList(0, keep));
                for (JsonNode t : st.get("push")) row.add(types.computeIfAbsent(t.asText(), TypeSyntax::parse));
                stack = Row.of(row);
            }
            String text = o.get("text").asText();
            String language = o.has("language") ? o.get("language").asText() : Language.infer(text).spelling();
            String sourceId = o.get("source_id").asText();
            Definition d = new Definition(id, text, language, sourceId, made, uses, shadows, constants, stack, words, null, o);
            for (String name : order) {
                Made m = made.get(name);
                words.put(name, CompiledWord.deferred(name, m.signature(), m.suspends(), () -> rebuild(d)));
            }
            definitions.add(d);
            byId.put(id, d);
            lastId = id;
            for (String name : order) {
                definedBy.put(name, id);
                dictionary.put(name, words.get(name));
            }
        }
        if (eager) for (Definition d : definitions) rebuild(d);
        return dictionary;
    }

    /**
     * Reads the history of an image of format 1, whose every entry kept the whole session it was verified against:
     * each is verified and compiled again now, in order, and recorded as a definition of this history.
     */
    synchronized Map<String, CompiledWord> readFormat1(List<Submitted> entries) {
        Map<String, CompiledWord> dictionary = new LinkedHashMap<>();
        for (Submitted e : entries) {
            Language language = Language.named(e.language()).orElseThrow(() -> new Unrebuildable("unknown language " + e.language()));
            Frontend f = finch.frontend(language).orElseThrow(() -> new Unrebuildable("language " + e.language() + " is not available"));
            Lowering l = f.lower(e.text(), e.sourceId(), e.env());
            if (!l.ok()) throw new Unrebuildable("a saved submission no longer lowers: " + first(l.diagnostics()));
            Verification v = Verifier.verify(l.module().orElseThrow(), e.env());
            if (!v.ok()) throw new Unrebuildable("a saved submission no longer verifies: " + first(v.diagnostics()));
            CheckedModule m = v.module().orElseThrow();
            dictionary = new LinkedHashMap<>(finch.vm().rebuild(m, new VmState(library(), List.of(), dictionary, Map.of())).state().words());
            commit(new Submitted(e.text(), e.language(), e.sourceId(), e.env(), false, m), dictionary);
        }
        return dictionary;
    }

    // ---------------------------------------------------------------------------------------------- rebuild

    /**
     * The content key of restored definition {@code d} (null for one committed in this process): its saved form (text,
     * language, source, what it made, what it redefines, the constants, the stack as a change from the previous
     * definition's) with the previous definition's key, which stands for all before it — so the same key means the same
     * verified module compiled against the same code — and the session's vocabulary. Made when first needed, for every
     * definition up to {@code d} (a loop, not a recursion).
     */
    private String key(Definition d) {
        if (d.saved == null) return null;
        if (d.key != null) return d.key;
        String previous = "";
        for (Definition x : definitions) {
            if (x.saved == null) return null;
            if (x.key == null) x.key = digest(x, previous);
            if (x == d) return x.key;
            previous = x.key;
        }
        return null;
    }

    private String digest(Definition x, String previous) {
        java.security.MessageDigest md;
        try {
            md = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
        md.update((vocabulary().fingerprint() + '\u0000' + previous + '\u0000' + x.language + '\u0000').getBytes(java.nio.charset.StandardCharsets.UTF_8));
        md.update(x.saved.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return java.util.HexFormat.of().formatHex(md.digest());
    }

    /**
     * Verifies and compiles {@code d} again, after every definition it links to (transitively, lowest id first: a chain
     * of a thousand definitions is rebuilt by a loop, not a recursion), filling their deferred words.
     */
    private void rebuild(Definition d) {
        if (!dev.finch.vm.engine.CallerThread.roomy()) {
            finch.vm().onWorker(() -> {
                rebuild(d);
                return null;
            });
            return;
        }
        synchronized (this) {
            if (d.remaker != null) return;
            TreeMap<Long, Definition> todo = new TreeMap<>();
            ArrayDeque<Definition> walk = new ArrayDeque<>();
            walk.add(d);
            while (!walk.isEmpty()) {
                Definition x = walk.poll();
                if (x.remaker != null || todo.containsKey(x.id)) continue;
                todo.put(x.id, x);
                for (Long u : x.uses.values()) walk.add(byId.get(u));
            }
            for (Definition x : todo.values()) compile(x);
        }
    }

    /** How many definitions this history compiled again since it was read. */
    synchronized int rebuilt() { return rebuilt; }

    /** The number of definitions it holds. */
    synchronized int definitionCount() { return definitions.size(); }

    /** Each definition, in order. */
    synchronized void forEachDefinition(java.util.function.Consumer<Definition> each) { definitions.forEach(each); }

    /** {@code d} verified again from its text against its part of the session (for tests: nothing is kept). */
    CheckedModule verifyAgain(Definition d) { return verify(d); }

    /**
     * Compiles {@code x} (verified first if need be) against the words it links to, and fills its deferred words — or
     * takes what this Finch already rebuilt from a definition of the same content ({@link RebuildCache}).
     */
    private void compile(Definition x) {
        String key = key(x);
        RebuildCache.Built cached = key == null ? null : finch.rebuilt().get(key);
        if (cached != null) {
            x.module = cached.module();
            fill(x, cached.words());
            x.remaker = cached.remaker();
            return;
        }
        CheckedModule m = x.module();
        Map<String, CompiledWord> links = new LinkedHashMap<>();
        for (var u : x.uses.entrySet()) links.put(u.getKey(), byId.get(u.getValue()).words.get(u.getKey()));
        Vm.Rebuilt r;
        try {
            r = finch.vm().rebuild(m, new VmState(library(), List.of(), links, Map.of()));
        } catch (CompiledWord.Unavailable e) {
            throw e;
        } catch (RuntimeException e) {
            throw unavailable(x, "it could not be compiled again", e);
        }
        fill(x, r.words());
        x.remaker = r.remaker();
        rebuilt++;
        if (key != null) finch.rebuilt().put(key, new RebuildCache.Built(m, r.words(), r.remaker()));
    }

    /** Gives {@code x}'s deferred words the code of {@code built}, the same definition compiled. */
    private static void fill(Definition x, Map<String, CompiledWord> built) {
        for (var w : x.words.entrySet()) {
            CompiledWord b = built.get(w.getKey());
            if (b == null || !b.signature().equals(w.getValue().signature())) throw unavailable(x, "`" + w.getKey() + "` no longer compiles the same way");
            if (!w.getValue().isResolved()) w.getValue().fill(b);
        }
    }

    /** Lowers and verifies {@code d} again against its part of the session; it must make exactly the words it made. */
    private CheckedModule verify(Definition d) {
        Language language = Language.named(d.language).orElseThrow(() -> unavailable(d, "its language '" + d.language + "' is unknown"));
        Frontend f = finch.frontend(language).orElseThrow(() -> unavailable(d, "its language is not available in this build"));
        Environment env = d.environment();
        Lowering l = f.lower(d.text, d.sourceId, env);
        if (!l.ok()) throw unavailable(d, "it no longer lowers: " + first(l.diagnostics()));
        Verification v = Verifier.verify(l.module().orElseThrow(), env);
        if (!v.ok()) throw unavailable(d, "it no longer verifies: " + first(v.diagnostics()));
        CheckedModule m = v.module().orElseThrow();
        Map<String, Made> now = new LinkedHashMap<>();
        for (CheckedWord w : m.words()) now.put(w.name(), new Made(w.signature(), w.suspends()));
        if (!now.equals(d.made)) throw unavailable(d, "it no longer makes the words it made");
        return m;
    }

    private static String first(List<Diagnostic> ds) { return ds.isEmpty() ? "(no diagnostic)" : ds.get(0).code() + " " + ds.get(0).message(); }

    /** The diagnostic of a definition that does not rebuild, for the host or the run that needed it. */
    private static CompiledWord.Unavailable unavailable(Definition d, String why) { return unavailable(d, why, null); }

    private static CompiledWord.Unavailable unavailable(Definition d, String why, Throwable cause) {
        return new CompiledWord.Unavailable(SessionCode.IMAGE.at(Origin.of(d.sourceId, 0, 0),
                "the saved definition from " + d.sourceId + " cannot be rebuilt: " + why), cause);
    }
}
