package dev.finch.vm.compile;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Vocabulary words implemented by one static runtime method whose JVM signature follows the word's declared
 * overload (int {@code long}, float {@code double}, bool {@code boolean}, string {@code String}, anything else
 * {@code Object}), optionally preceded by the run context and followed by the call site's origin. Both tiers use
 * this one table: compiled code calls the method directly, the interpreter through a cached method handle.
 */
final class Helpers {
    private Helpers() { }

    static final String RT = "dev/finch/vm/runtime/Rt";
    static final String HOST = "dev/finch/vm/host/HostWords";

    /** A word's runtime method: its owner class, name, and whether it takes the context and the origin. */
    record Helper(String owner, String method, boolean ctx, boolean origin) {
        static Helper rt(String method, boolean ctx, boolean origin) { return new Helper(RT, method, ctx, origin); }

        static Helper host(String method) { return new Helper(HOST, method, true, true); }
    }

    static final Map<String, Helper> TABLE = Map.ofEntries(
            Map.entry("string-append", Helper.rt("stringAppend", true, true)),
            Map.entry("string-length", Helper.rt("stringLength", false, false)),
            Map.entry("int-to-string", Helper.rt("intToString", false, false)),
            Map.entry("float-to-string", Helper.rt("floatToString", false, false)),
            Map.entry("string-to-int", Helper.rt("stringToInt", false, false)),
            Map.entry("bytes-to-string", Helper.rt("bytesToString", false, false)),
            Map.entry("string-to-bytes", Helper.rt("stringToBytes", false, false)),
            Map.entry("say", Helper.rt("say", true, true)),
            Map.entry("some", Helper.rt("some", false, false)),
            Map.entry("none", Helper.rt("none", false, false)),
            Map.entry("is-some", Helper.rt("isSome", false, false)),
            Map.entry("unwrap", Helper.rt("unwrap", false, true)),
            Map.entry("ok", Helper.rt("ok", false, false)),
            Map.entry("err", Helper.rt("err", false, false)),
            Map.entry("is-ok", Helper.rt("isOk", false, false)),
            Map.entry("result-unwrap", Helper.rt("resultUnwrap", false, true)),
            Map.entry("result-error", Helper.rt("resultError", false, true)),
            Map.entry("list-append", Helper.rt("listAppend", true, true)),
            Map.entry("list-get", Helper.rt("listGet", false, false)),
            Map.entry("list-length", Helper.rt("listLength", false, false)),
            Map.entry("list-uncons", Helper.rt("listUncons", false, false)),
            Map.entry("map-get", Helper.rt("mapGet", false, false)),
            Map.entry("map-set", Helper.rt("mapSet", false, false)),
            Map.entry("map-entries", Helper.rt("mapEntries", false, false)),
            Map.entry("json-parse", Helper.rt("jsonParse", false, false)),
            Map.entry("json-get", Helper.rt("jsonGet", false, false)),
            Map.entry("json-index", Helper.rt("jsonIndex", false, false)),
            Map.entry("json-keys", Helper.rt("jsonKeys", false, false)),
            Map.entry("json-as-string", Helper.rt("jsonAsString", false, false)),
            Map.entry("json-as-int", Helper.rt("jsonAsInt", false, false)),
            Map.entry("json-as-float", Helper.rt("jsonAsFloat", false, false)),
            Map.entry("json-as-bool", Helper.rt("jsonAsBool", false, false)),
            Map.entry("json-as-map", Helper.rt("jsonAsMap", false, false)),
            Map.entry("json-stringify", Helper.rt("jsonStringify", false, false)),
            Map.entry("vm-vocabulary", Helper.rt("vmVocabulary", true, false)),
            Map.entry("list-prepend", Helper.rt("listPrepend", false, false)),
            Map.entry("program-error", Helper.rt("programError", false, true)),
            Map.entry("money-from-micros", Helper.rt("moneyFromMicros", false, false)),
            Map.entry("duration-from-millis", Helper.rt("durationFromMillis", false, false)),
            Map.entry("money-unlimited", Helper.rt("moneyUnlimited", false, false)),
            Map.entry("duration-unlimited", Helper.rt("durationUnlimited", false, false)),
            // Host words: every one passes the host boundary (authorization, journal, dispatch or suspension).
            Map.entry("path", Helper.host("path")),
            Map.entry("host-path", Helper.host("hostPath")),
            Map.entry("project-path", Helper.host("projectPath")),
            Map.entry("task-output-path", Helper.host("taskOutputPath")),
            Map.entry("file-read", Helper.host("fileRead")),
            Map.entry("file-write", Helper.host("fileWrite")),
            Map.entry("file-size", Helper.host("fileSize")),
            Map.entry("file-slice", Helper.host("fileSlice")),
            Map.entry("tree-list", Helper.host("treeList")),
            Map.entry("host-file-read", Helper.host("hostFileRead")),
            Map.entry("host-file-write", Helper.host("hostFileWrite")),
            Map.entry("project-file-read", Helper.host("projectFileRead")),
            Map.entry("project-file-write", Helper.host("projectFileWrite")),
            Map.entry("task-output-file-read", Helper.host("taskOutputFileRead")),
            Map.entry("task-output-file-write", Helper.host("taskOutputFileWrite")),
            Map.entry("file-lines-open", Helper.host("fileLinesOpen")),
            Map.entry("csv-open", Helper.host("csvOpen")),
            Map.entry("csv-summary", Helper.host("csvSummary")),
            Map.entry("stream-next", Helper.host("streamNext")),
            Map.entry("stream-close", Helper.host("streamClose")),
            Map.entry("file-lines-next", Helper.host("streamNext")),
            Map.entry("file-lines-close", Helper.host("streamClose")),
            Map.entry("process-run", Helper.host("processRun")),
            Map.entry("model-ask", new Helper("dev/finch/vm/host/ModelWords", "ask", true, true)),
            Map.entry("tool-capability", new Helper("dev/finch/vm/host/ToolWords", "capability", true, true)),
            Map.entry("tool-call", new Helper("dev/finch/vm/host/ToolWords", "call", true, true)),
            Map.entry("budget-open", new Helper("dev/finch/vm/host/ModelWords", "budgetOpen", true, true)),
            Map.entry("budget-close", new Helper("dev/finch/vm/host/ModelWords", "budgetClose", true, true)),
            Map.entry("step-spawn", Helper.rt("stepSpawn", true, true)),
            Map.entry("step-join", Helper.rt("stepJoin", true, true)),
            Map.entry("budget-remaining", new Helper("dev/finch/vm/host/ModelWords", "budgetRemaining", true, true)));

    /** The JVM descriptor of the helper for overload {@code decl}. */
    static String descriptor(Type.Fn decl, Helper h) {
        StringBuilder desc = new StringBuilder("(");
        if (h.ctx()) desc.append("L").append(MethodCompiler.CTX).append(';');
        for (Type t : decl.ins()) desc.append(Kind.helperDesc(t));
        if (h.origin()) desc.append(MethodCompiler.ORIGIN_DESC);
        desc.append(')');
        desc.append(decl.outs().isEmpty() ? "V" : Kind.helperDesc(decl.outs().get(0)));
        return desc.toString();
    }

    private static final Map<String, MethodHandle> BOXED = new ConcurrentHashMap<>();

    /** For the interpreter: the helper of {@code word} as {@code (Ctx, Object[] args, Origin) Object}. */
    static MethodHandle boxed(String word, int overload) {
        return BOXED.computeIfAbsent(word + "#" + overload, key -> {
            Helper h = TABLE.get(word);
            Type.Fn decl = Vocabulary.word(word).orElseThrow().overloads().get(overload);
            MethodType mt = MethodType.fromMethodDescriptorString(descriptor(decl, h), Helpers.class.getClassLoader());
            try {
                Class<?> owner = Class.forName(h.owner().replace('/', '.'), true, Helpers.class.getClassLoader());
                MethodHandle mh = MethodHandles.publicLookup().findStatic(owner, h.method(), mt);
                if (!h.ctx()) mh = MethodHandles.dropArguments(mh, 0, Ctx.class);
                if (!h.origin()) mh = MethodHandles.dropArguments(mh, mh.type().parameterCount(), Origin.class);
                int n = decl.ins().size();
                Class<?>[] params = new Class<?>[n + 2];
                params[0] = Ctx.class;
                for (int i = 0; i < n; i++) params[1 + i] = Object.class;
                params[n + 1] = Origin.class;
                mh = mh.asType(MethodType.methodType(Object.class, params));
                // (Ctx, Object..., Origin) -> (Ctx, Origin, Object...) -> spread the args array.
                int[] order = new int[n + 2];
                order[0] = 0;
                for (int i = 0; i < n; i++) order[1 + i] = 2 + i;
                order[n + 1] = 1;
                Class<?>[] reordered = new Class<?>[n + 2];
                reordered[0] = Ctx.class;
                reordered[1] = Origin.class;
                for (int i = 0; i < n; i++) reordered[2 + i] = Object.class;
                mh = MethodHandles.permuteArguments(mh, MethodType.methodType(Object.class, reordered), order);
                return mh.asSpreader(Object[].class, n);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("no runtime method for vocabulary word " + word, e);
            }
        });
    }
}
