package dev.finch;

import dev.finch.vm.engine.Remaker;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.vm.engine.CompiledWord;
import java.lang.ref.SoftReference;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The definitions a {@link Finch} has rebuilt from images (issue 33), by content: a restored definition's key digests
 * its text, language, source, the part of the session it was verified against and — through their keys — the
 * definitions it links to, so two images that hold the same definition (a session restored at every step of a
 * workflow, say) rebuild it once. What is kept is immutable (the verified module, the compiled words, what remakes its
 * values), shared by the sessions that restore it, held softly, and bounded in number.
 */
final class RebuildCache {
    /** A rebuilt definition. */
    record Built(CheckedModule module, Map<String, CompiledWord> words, Remaker remaker) { }

    /** How many rebuilt definitions are kept at most (the least recently used go first). */
    static final int CAPACITY = 4096;

    private final Map<String, SoftReference<Built>> entries = new LinkedHashMap<>(64, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, SoftReference<Built>> eldest) { return size() > CAPACITY; }
    };

    synchronized Built get(String key) {
        SoftReference<Built> ref = entries.get(key);
        Built b = ref == null ? null : ref.get();
        if (ref != null && b == null) entries.remove(key);
        return b;
    }

    synchronized void put(String key, Built built) { entries.put(key, new SoftReference<>(built)); }
}
