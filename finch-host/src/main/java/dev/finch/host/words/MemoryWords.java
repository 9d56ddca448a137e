package dev.finch.host.words;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.capabilities.SegmentPattern;
import dev.finch.host.MemoryCode;
import dev.finch.host.MemoryHost;
import dev.finch.host.MemoryWrites;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.RunHost;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.Unit;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Memory: JSON values under paths in three trees — the session's ({@code session}), the project's ({@code project})
 * and the store's ({@code global}) — read and written under {@code memory.read(tree=…,path=…)} and
 * {@code memory.write(tree=…,path=…)}. A run's writes are staged ({@link MemoryWrites}) and take effect only when it
 * commits; its own reads see them at once.
 */
public final class MemoryWords {
    private MemoryWords() { }

    /** The most paths {@code memory-list} answers. */
    public static final int MAX_LISTING = 1_000;

    /** The bound of one value when the host states none. */
    private static final int DEFAULT_MAX_VALUE_BYTES = 64 * 1024;

    @Word(name = "memory-get", category = Category.HOST, doc = "The JSON value at a path of a memory tree (\"session\", \"project\" or \"global\"): "
            + "some(value), or none when there is none. Sees this run's own writes. Needs memory.read(tree=T,path=P).")
    @Overload(sig = "string string -> option<json> ! {memory.read(tree=*,path=**)}", requires = "memory.read(tree=$0,path=$1)")
    public static Object memoryGet(Ctx ctx, String tree, String path, Type.Fn site, Origin o) {
        MemoryWrites.Tree t = tree(tree, o);
        String p = path(path, o);
        RunHost run = RunHost.of(ctx);
        MemoryHost host = run.config().binding(MemoryHost.class);
        MemoryWrites staged = run.state(MemoryWrites.KIND);
        return run.await(ctx, "memory-get", Capability.of("memory.read", "tree=" + t.spelling(), "path=" + p),
                EffectRequest.inputs(site, tree, path), site.outs(), o, host == null ? null : () -> {
                    var mine = staged.staged(t, p);
                    if (mine.isPresent()) return mine.get().deletes() ? OptionValue.NONE : OptionValue.some(mine.get().value());
                    return host.read(t, p).<Object>map(OptionValue::some).orElse(OptionValue.NONE);
                });
    }

    @Word(name = "memory-put", category = Category.HOST, doc = "Set the JSON value at a path of a memory tree, replacing what was there; "
            + "written when the run commits (a failed run writes nothing). Values are bounded (64 KiB of JSON unless the host says). "
            + "Needs memory.write(tree=T,path=P).")
    @Overload(sig = "string string json -> ! {memory.write(tree=*,path=**)}", requires = "memory.write(tree=$0,path=$1)")
    public static void memoryPut(Ctx ctx, String tree, String path, Object value, Type.Fn site, Origin o) {
        MemoryWrites.Tree t = tree(tree, o);
        String p = path(path, o);
        JsonNode json = (JsonNode) value;
        RunHost run = RunHost.of(ctx);
        MemoryHost host = run.config().binding(MemoryHost.class);
        int max = host == null ? DEFAULT_MAX_VALUE_BYTES : host.maxValueBytes();
        int bytes = json.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > max) throw new FinchTrap(MemoryCode.TOO_LARGE, o, "the value is " + bytes + " bytes of JSON; one memory entry holds at most " + max);
        MemoryWrites staged = run.state(MemoryWrites.KIND);
        room(staged, t, p, o);
        run.await(ctx, "memory-put", Capability.of("memory.write", "tree=" + t.spelling(), "path=" + p),
                EffectRequest.inputs(site, tree, path, value), site.outs(), o, host == null ? null : () -> stage(staged, new MemoryWrites.Write(t, p, json)));
    }

    @Word(name = "memory-delete", category = Category.HOST, doc = "Delete the entry at a path of a memory tree (nothing when there is none); "
            + "deleted when the run commits. Needs memory.write(tree=T,path=P).")
    @Overload(sig = "string string -> ! {memory.write(tree=*,path=**)}", requires = "memory.write(tree=$0,path=$1)")
    public static void memoryDelete(Ctx ctx, String tree, String path, Type.Fn site, Origin o) {
        MemoryWrites.Tree t = tree(tree, o);
        String p = path(path, o);
        RunHost run = RunHost.of(ctx);
        MemoryHost host = run.config().binding(MemoryHost.class);
        MemoryWrites staged = run.state(MemoryWrites.KIND);
        room(staged, t, p, o);
        run.await(ctx, "memory-delete", Capability.of("memory.write", "tree=" + t.spelling(), "path=" + p),
                EffectRequest.inputs(site, tree, path), site.outs(), o, host == null ? null : () -> stage(staged, new MemoryWrites.Write(t, p, null)));
    }

    @Word(name = "memory-list", category = Category.HOST, doc = "The paths of a memory tree at or under a path (\"\" for the whole tree), "
            + "in order, at most 1,000; sees this run's own writes. Needs memory.read(tree=T,path=P/**).")
    @Overload(sig = "string string -> list<string> ! {memory.read(tree=*,path=**)}", requires = "memory.read(tree=$0,path=$1/**)")
    public static Object memoryList(Ctx ctx, String tree, String prefix, Type.Fn site, Origin o) {
        MemoryWrites.Tree t = tree(tree, o);
        String p = prefix.isEmpty() ? "" : path(prefix, o);
        RunHost run = RunHost.of(ctx);
        MemoryHost host = run.config().binding(MemoryHost.class);
        MemoryWrites staged = run.state(MemoryWrites.KIND);
        return run.await(ctx, "memory-list", Capability.of("memory.read", "tree=" + t.spelling(), "path=" + (p.isEmpty() ? "**" : p + "/**")),
                EffectRequest.inputs(site, tree, prefix), site.outs(), o, host == null ? null : () -> {
                    TreeSet<String> paths = new TreeSet<>(host.list(t, p, MAX_LISTING).paths());
                    for (MemoryWrites.Write w : staged.under(t, p)) {
                        if (w.deletes()) paths.remove(w.path());
                        else paths.add(w.path());
                    }
                    List<Object> out = new ArrayList<>();
                    for (String s : paths) {
                        if (out.size() == MAX_LISTING) break;
                        out.add(s);
                    }
                    return ListValue.from(out);
                });
    }

    private static Object stage(MemoryWrites staged, MemoryWrites.Write w) {
        staged.stage(w);
        return Unit.INSTANCE;
    }

    /** Refuses a write past the run's bound of staged writes, before it is requested. */
    private static void room(MemoryWrites staged, MemoryWrites.Tree t, String p, Origin o) {
        if (!staged.hasRoomFor(t, p)) {
            throw new FinchTrap(MemoryCode.TOO_LARGE, o, "a run stages at most " + MemoryWrites.MAX_WRITES + " memory writes; commit some first");
        }
    }

    private static MemoryWrites.Tree tree(String tree, Origin o) {
        return MemoryWrites.Tree.bySpelling(tree).orElseThrow(() -> new FinchTrap(MemoryCode.BAD_TREE, o,
                "\"" + abbreviate(tree) + "\" is not a memory tree; name \"session\", \"project\" or \"global\""));
    }

    /** {@code path} as one concrete entry, canonical ({@code a/b}). */
    static String path(String path, Origin o) {
        if (path.getBytes(StandardCharsets.UTF_8).length > 1024) throw new FinchTrap(MemoryCode.BAD_PATH, o, "a memory path is at most 1,024 bytes");
        var parsed = SegmentPattern.parse(path);
        if (!parsed.isOk() || parsed.value().isEmpty() || !parsed.value().isConcrete()) {
            throw new FinchTrap(MemoryCode.BAD_PATH, o, "\"" + abbreviate(path) + "\" is not a memory path: name one entry as segments "
                    + "separated by / (no '..', no empty segment, no * or ?)");
        }
        return String.join("/", parsed.value().segments());
    }

    private static String abbreviate(String s) { return s.length() <= 60 ? s : s.substring(0, 60) + "…"; }
}
