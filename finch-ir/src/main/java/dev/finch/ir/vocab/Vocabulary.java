package dev.finch.ir.vocab;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A vocabulary: the words a submission may call, as data. Finch's core words and the words a host installs are
 * declared once, beside their implementations, in {@code finch-vm}; the resulting vocabulary flows to the frontends
 * and the verifier through the {@link dev.finch.ir.checked.Environment} they already receive, so this module knows
 * no word by itself. Immutable: installing words makes a new vocabulary ({@link #extend}).
 *
 * <p>Every word's name is unique, and every overload id is unique across the whole vocabulary, because a verified
 * call records the id of the overload it chose and the VM binds the implementation to that id.
 */
public final class Vocabulary {
    /** A vocabulary with no words (for tests of the frontends' own syntax). */
    public static final Vocabulary EMPTY = new Vocabulary(List.of());

    private final Map<String, WordSpec> words = new LinkedHashMap<>();
    private final Map<String, WordSpec> byOverload = new LinkedHashMap<>();
    /** Each overload by its id (the verifier and the VM look one up for every call a program makes). */
    private final Map<String, Overload> overloads = new java.util.HashMap<>();
    /** The digest of {@link #fingerprint}, made on first use (most vocabularies are never saved with a session). */
    private volatile String fingerprint;

    private Vocabulary(List<WordSpec> list) {
        for (WordSpec w : list) {
            if (words.put(w.name(), w) != null) throw new IllegalArgumentException("the word `" + w.name() + "` is declared twice");
            for (Overload o : w.overloads()) {
                WordSpec other = byOverload.put(o.id(), w);
                overloads.put(o.id(), o);
                if (other != null) {
                    throw new IllegalArgumentException("the overload id `" + o.id() + "` is used by `" + other.name() + "` and `" + w.name() + "`");
                }
            }
        }
    }

    /** A vocabulary of these words, in this (documentation) order; names and overload ids must be unique. */
    public static Vocabulary of(List<WordSpec> words) { return new Vocabulary(words); }

    /** This vocabulary and {@code more} after it; a name or overload id that is already taken is refused. */
    public Vocabulary extend(List<WordSpec> more) {
        List<WordSpec> all = new ArrayList<>(words.values());
        all.addAll(more);
        return new Vocabulary(all);
    }

    /**
     * This vocabulary with each of {@code words} in place of the host word of the same name, or after the others when
     * no word has its name (how a host's derived words are reinstalled when their source changes, e.g. an MCP server's
     * tools). Finch's own words are never replaced; a name or overload id taken by another word is refused.
     */
    public Vocabulary replacing(List<WordSpec> words) {
        Map<String, WordSpec> byName = new LinkedHashMap<>(this.words);
        for (WordSpec w : words) {
            WordSpec before = byName.get(w.name());
            if (before != null && before.origin() == WordSpec.Provenance.CORE) {
                throw new IllegalArgumentException("the word `" + w.name() + "` is Finch's own and cannot be replaced");
            }
            if (before != null) byName.put(w.name(), w);
        }
        List<WordSpec> all = new ArrayList<>(byName.values());
        for (WordSpec w : words) if (!this.words.containsKey(w.name())) all.add(w);
        return new Vocabulary(all);
    }

    /** The word named {@code name}, if any. */
    public Optional<WordSpec> word(String name) { return Optional.ofNullable(words.get(name)); }

    /**
     * The words another language spells {@code name} ({@link WordSpec#aka}: {@code display} is {@code say}), in
     * documentation order; empty for a name that is a word itself.
     */
    public List<WordSpec> byMeaning(String name) {
        if (name == null || words.containsKey(name)) return List.of();
        List<WordSpec> out = new ArrayList<>();
        for (WordSpec w : words.values()) if (w.aka().contains(name)) out.add(w);
        return out;
    }

    /** The word that owns the overload {@code id}, if any. */
    public Optional<WordSpec> ownerOf(String id) { return Optional.ofNullable(byOverload.get(id)); }

    /** The overload {@code id}, if any. */
    public Optional<Overload> overload(String id) { return Optional.ofNullable(overloads.get(id)); }

    /** Every word, in documentation order. */
    public List<WordSpec> words() { return List.copyOf(words.values()); }

    /** The names of every word, for "did you mean" suggestions. */
    public Set<String> names() { return Collections.unmodifiableSet(words.keySet()); }

    /** True when no word is named {@code name}. */
    public boolean isEmpty() { return words.isEmpty(); }

    /**
     * A digest of every declaration (names, overload ids, signatures, templates, typing), so that a saved session can
     * tell whether the vocabulary it is restored under is the one it was saved under.
     */
    public String fingerprint() {
        String f = fingerprint;
        // Two threads may both compute it; they compute the same string.
        if (f == null) fingerprint = f = digest(words.values());
        return f;
    }

    private static String digest(java.util.Collection<WordSpec> list) {
        StringBuilder b = new StringBuilder();
        for (WordSpec w : list) {
            b.append(w.name()).append('\u0000').append(w.typing()).append('\u0000').append(w.foldsLeft());
            for (Overload o : w.overloads()) {
                b.append('\u0001').append(o.id()).append('\u0000').append(o.signature())
                        .append('\u0000').append(o.requires().map(Object::toString).orElse("")).append('\u0000').append(o.refines());
            }
            b.append('\n');
        }
        return dev.finch.ir.Sha256.hex(b.toString());
    }

    @Override public String toString() { return "Vocabulary(" + words.size() + " words)"; }
}
