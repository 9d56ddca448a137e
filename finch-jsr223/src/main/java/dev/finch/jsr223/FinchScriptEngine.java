package dev.finch.jsr223;

import dev.finch.EmbedCode;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.capabilities.CapabilityCode;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.OutputSink;
import dev.finch.vm.Value;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.script.AbstractScriptEngine;
import javax.script.Bindings;
import javax.script.Invocable;
import javax.script.ScriptContext;
import javax.script.ScriptEngine;
import javax.script.ScriptEngineFactory;
import javax.script.ScriptException;
import javax.script.SimpleBindings;

/**
 * A JSR-223 engine over one Finch {@link Session}: scripts evaluated in it share one dictionary and one persistent
 * stack, exactly as a session's submissions do.
 * <ul>
 *   <li>{@code eval} submits the script (its source identity the context's {@link ScriptEngine#FILENAME}, else
 *       {@code "script"}); {@code say} text goes to the context's writer as it is said; the answer is the value the
 *       script left on top of the stack (as plain Java: {@link Value#toJava()}), or null when it left none. A plain unit
 *       {@code yield} is resumed at once and a wait for a CPU task waited out, as the command line does.</li>
 *   <li>The engine-scope {@link Bindings} become session constants before each script ({@link Session#define}), by
 *       name, as typed values ({@link Value#of(Object)}): {@code engine.put("n", 41)} and then {@code eval("(+ n 1)")}
 *       answers 42. Bindings that are not names Finch reads ({@code javax.script.filename}…) are skipped; a value Finch
 *       cannot hold is a {@link ScriptException}.</li>
 *   <li>Every refusal is a {@link FinchScriptException} (a {@link ScriptException}) whose message starts with a stable
 *       code and whose {@link FinchScriptException#code() code()} answers it: a parse, verify or run-time error with its
 *       own code, source, line and column; a pause for a capability the session was not granted {@code E-CAP-014}; a
 *       yield of a value {@code E-EMBED-003}; a binding or argument Finch cannot hold {@code E-EMBED-001}/{@code -002}.
 *       Nothing is committed and a paused run is cancelled.</li>
 *   <li>A script's <b>workspace and grants</b> come from the context (engine or global scope) when the engine's session
 *       begins, at its first script: {@value #WORKSPACE} (a directory: a {@link java.nio.file.Path}, a {@link java.io.File}
 *       or a path string) installs the workspace root, and {@value #GRANTS} (one grant string, or a collection of them)
 *       adds grants, to the factory's {@link dev.finch.SessionOptions}. So a script found through {@code ScriptEngineManager}
 *       can read its files: {@code engine.put("finch.workspace", dir); engine.put("finch.grants", "fs.read(${workspace}/**)")}.
 *       They are fixed from then on: changing them later, or giving a malformed one, is {@code E-EMBED-006}.</li>
 *   <li>{@link Invocable}: {@code invokeFunction("sq", 7)} calls the session's word {@code sq} ({@link Session#call});
 *       {@code getInterface(Type.class)} answers a proxy whose methods call the words of their names. Finch has no
 *       objects, so the {@code invokeMethod} and {@code getInterface(thiz, …)} forms are refused.</li>
 * </ul>
 * A writer that fails under {@code say} loses that text, as any host sink does; the script goes on. Like its session,
 * an engine runs one script at a time.
 */
public final class FinchScriptEngine extends AbstractScriptEngine implements Invocable {
    /** The context attribute naming the workspace directory of the engine's session (read at its first script). */
    public static final String WORKSPACE = "finch.workspace";
    /** The context attribute naming the grants of the engine's session: one string or a collection (read at its first script). */
    public static final String GRANTS = "finch.grants";

    private final FinchScriptEngineFactory factory;
    /** Made at the first script (or {@link #session()}), from the factory's options and the context's settings. */
    private Session session;
    /** The settings the session began with, so a later change is refused rather than ignored. */
    private List<Object> settings;
    /** What each binding was when last made a constant, so an unchanged binding is not defined again. */
    private final Map<String, Value> defined = new HashMap<>();

    FinchScriptEngine(FinchScriptEngineFactory factory) {
        this.factory = factory;
    }

    /**
     * The session this engine evaluates in (its stack, dictionary, grants and pending executions); begun now, with the
     * current context's {@value #WORKSPACE} and {@value #GRANTS}, if no script began it yet.
     *
     * @return the engine's session, the same one for every later script and call
     * @throws IllegalStateException when those settings are malformed ({@code E-EMBED-006})
     */
    public synchronized Session session() {
        try {
            return session(context);
        } catch (FinchScriptException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The session, begun with {@code context}'s settings if it was not; the settings must not have changed since. */
    private synchronized Session session(ScriptContext context) throws FinchScriptException {
        Object workspace = context.getAttribute(WORKSPACE);
        Object grants = context.getAttribute(GRANTS);
        List<Object> now = java.util.Arrays.asList(workspace, grants);
        if (session != null) {
            if (!now.equals(settings)) {
                throw new FinchScriptException(EmbedCode.ENGINE_SETTINGS.at(SCRIPT, "finch.workspace and finch.grants are fixed when the engine's "
                        + "session begins (its first script); they changed since, so nothing ran (use a new engine for other settings)"));
            }
            return session;
        }
        dev.finch.SessionOptions options = factory.options();
        if (workspace != null) {
            java.nio.file.Path dir;
            try {
                dir = workspace instanceof java.nio.file.Path p ? p : workspace instanceof java.io.File f ? f.toPath()
                        : workspace instanceof String s ? java.nio.file.Path.of(s) : null;
            } catch (java.nio.file.InvalidPathException bad) {
                dir = null;
            }
            if (dir == null || !java.nio.file.Files.isDirectory(dir)) {
                throw new FinchScriptException(EmbedCode.ENGINE_SETTINGS.at(SCRIPT, "finch.workspace must be a directory (a Path, a File or a path "
                        + "string); it is " + what(workspace) + ", so nothing ran"));
            }
            options = options.withWorkspace(dir);
        }
        if (grants != null) {
            Iterable<?> all = grants instanceof Iterable<?> it ? it : List.of(grants);
            for (Object g : all) {
                if (!(g instanceof String spec)) {
                    throw new FinchScriptException(EmbedCode.ENGINE_SETTINGS.at(SCRIPT, "finch.grants holds " + what(g) + "; a grant is a string such as "
                            + "fs.read(${workspace}/**), so nothing ran"));
                }
                options = options.withGrant(spec);
            }
        }
        try {
            session = factory.finch().newSession(options);
        } catch (IllegalArgumentException malformed) {
            throw new FinchScriptException(EmbedCode.ENGINE_SETTINGS.at(SCRIPT, "finch.grants: " + malformed.getMessage() + "; nothing ran"));
        }
        settings = now;
        return session;
    }

    /**
     * Reads the whole script from {@code reader}, then evaluates it as {@link #eval(String, ScriptContext)} does; a reader
     * that fails is {@code E-EMBED-004}, its exception the refusal's cause, and nothing runs.
     */
    @Override public Object eval(Reader reader, ScriptContext context) throws ScriptException {
        StringBuilder b = new StringBuilder();
        char[] buf = new char[8192];
        try {
            for (int n; (n = reader.read(buf)) > 0; ) b.append(buf, 0, n);
        } catch (IOException e) {
            throw new FinchScriptException(List.of(EmbedCode.UNREADABLE_SCRIPT.at(SCRIPT, "the script could not be read from its reader; nothing ran")), e);
        }
        return eval(b.toString(), context);
    }

    /**
     * Submits {@code script} to the engine's session after making the context's engine-scope bindings session constants;
     * {@code say} text goes to the context's writer as it is said. Answers the value the script left on top of the stack,
     * as plain Java, or null when it left none; every refusal is a {@link FinchScriptException} (see the class comment).
     */
    @Override public Object eval(String script, ScriptContext context) throws ScriptException {
        if (script == null) throw new NullPointerException("script");
        Session session = session(context);
        bind(session, context.getBindings(ScriptContext.ENGINE_SCOPE));
        Object name = context.getAttribute(ScriptEngine.FILENAME);
        String sourceId = name == null ? "script" : name.toString();
        Writer out = context.getWriter();
        OutputSink sink = out == null ? OutputSink.NONE : chunk -> {
            try {
                out.write(chunk);
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        Submission s = Submission.of(script, sourceId).withSink(sink);
        if (factory.language().isPresent()) s = s.withLanguage(factory.language().get());
        int before = session.stack().size();
        return top(settle(session.submit(s)), before);
    }

    /** Makes each engine-scope binding that Finch can name a session constant, unless it is unchanged. */
    private void bind(Session session, Bindings bindings) throws ScriptException {
        if (bindings == null) return;
        for (Map.Entry<String, Object> e : bindings.entrySet()) {
            String key = e.getKey();
            if (key == null || key.startsWith("javax.script.") || key.equals(WORKSPACE) || key.equals(GRANTS) || !Session.isConstantName(key)) continue;
            Value v;
            try {
                v = e.getValue() instanceof Value given ? given : Value.of(e.getValue());
            } catch (IllegalArgumentException notFinch) {
                throw new FinchScriptException(EmbedCode.UNHELD_VALUE.at(SCRIPT, "binding '" + key + "' holds " + what(e.getValue())
                        + ", which Finch cannot hold; nothing ran"));
            }
            if (v.equals(defined.get(key))) continue;
            try {
                session.define(key, v);
            } catch (IllegalArgumentException clash) {
                throw new FinchScriptException(EmbedCode.BINDING_CLASH.at(SCRIPT, "binding '" + key + "': " + clash.getMessage() + "; nothing ran"));
            }
            defined.put(key, v);
        }
    }

    /** Resumes what the command line resumes (unit yields, task waits); any other pause is cancelled and refused. */
    private Outcome settle(Outcome o) throws ScriptException {
        for (int i = 0; i < 1_000_000 && o instanceof Outcome.Suspended su; i++) {
            if (su.isUnitYield()) o = session.resume(o.executionId());
            else if (su.waitingTask().isPresent()) o = session.awaitTasks(o);
            else break;
        }
        if (o instanceof Outcome.Completed) return o;
        if (o instanceof Outcome.Suspended su) {
            session.cancel(o.executionId());
            if (su.pendingRequest().isPresent()) {
                Diagnostic d = CapabilityCode.NOT_GRANTED.at(su.pendingRequest().get().request().origin(), "the script needs "
                        + String.join(", ", o.requiredCapabilities()) + ", which this engine's session was not granted (grant it in the "
                        + "SessionOptions of the engine's factory); the run was cancelled and nothing was done");
                throw new FinchScriptException(d);
            }
            throw new FinchScriptException(EmbedCode.UNANSWERED_YIELD.at(Origin.of(o.sourceId(), 0, 0), "the script yielded "
                    + su.yielded().map(dev.finch.StackEntry::display).orElse("a value") + "; an engine resumes only unit yields, so the run was "
                    + "cancelled and nothing was committed"));
        }
        List<Diagnostic> ds = o.diagnostics();
        if (ds.isEmpty()) {
            throw new FinchScriptException(dev.finch.SessionCode.INTERNAL.at(Origin.of(o.sourceId(), 0, 0), "the script "
                    + o.status().spelling() + " without a diagnostic; nothing was committed"));
        }
        throw new FinchScriptException(ds, null);
    }

    /** Where a refusal of the engine's own (not of a script) is: the engine. */
    private static final Origin SCRIPT = Origin.of("<engine>", 0, 0);

    /** What kind of value the host handed in, in a word: {@code null}, {@code a Thread}. */
    private static String what(Object value) { return value == null ? "null" : "a " + value.getClass().getSimpleName(); }

    /** The value a completed script left on top of the stack, as Java, or null when it left none. */
    private static Object top(Outcome o, int before) {
        List<Value> values = o.values();
        return values.size() > before ? values.get(values.size() - 1).toJava() : null;
    }

    /** A new, empty {@link SimpleBindings}: its entries become session constants when a script is evaluated with it. */
    @Override public Bindings createBindings() { return new SimpleBindings(); }

    /** The factory that made this engine (its names, language and the session options it opens sessions with). */
    @Override public ScriptEngineFactory getFactory() { return factory; }

    // ---- Invocable ----------------------------------------------------------------------------------------------

    /** Calls the session's word {@code name} with {@code args} as typed values; answers its top result as Java, or null. */
    @Override public Object invokeFunction(String name, Object... args) throws ScriptException, NoSuchMethodException {
        Value v = call(name, args);
        return v == null ? null : v.toJava();
    }

    private Value call(String name, Object... args) throws ScriptException, NoSuchMethodException {
        if (name == null) throw new NullPointerException("name");
        Session session = session(context);
        if (!session.definitions().containsKey(name) && session.vocabulary().word(name).isEmpty()) {
            throw new NoSuchMethodException("no word or definition named '" + name + "' in this engine's session");
        }
        List<Value> values = new ArrayList<>();
        for (Object a : args == null ? new Object[0] : args) {
            try {
                values.add(a instanceof Value given ? given : Value.of(a));
            } catch (IllegalArgumentException e) {
                throw new FinchScriptException(EmbedCode.UNHELD_VALUE.at(SCRIPT, "an argument of '" + name + "' is " + what(a)
                        + ", which Finch cannot hold; nothing ran"));
            }
        }
        // A call's values are the word's outputs only; the session's stack is not touched.
        Outcome o = settle(session.call(name, values, OutputSink.NONE));
        List<Value> out = o.values();
        return out.isEmpty() ? null : out.get(out.size() - 1);
    }

    /**
     * Refused: Finch has no objects, so there is no method to call on one.
     *
     * @throws IllegalArgumentException always; call a word with {@link #invokeFunction(String, Object...)}
     */
    @Override public Object invokeMethod(Object thiz, String name, Object... args) {
        throw new IllegalArgumentException("Finch has no objects: call a word with invokeFunction(\"" + name + "\", …)");
    }

    /**
     * A proxy whose methods call the words of their names, each answer converted to the method's return type. A refusal
     * is a {@link FinchScriptException} where the method declares it, else a {@link FinchScriptException.Unchecked}.
     */
    @Override public <T> T getInterface(Class<T> type) {
        if (type == null || !type.isInterface()) throw new IllegalArgumentException("getInterface needs an interface type, not " + type);
        Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "toString" -> "Finch words as " + type.getName();
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    default -> throw new UnsupportedOperationException(m.getName());
                };
            }
            try {
                return answer(type, m, call(m.getName(), args));
            } catch (FinchScriptException refused) {
                // A method that declares no ScriptException gets the refusal unchecked (a proxy may not throw it checked).
                for (Class<?> declared : m.getExceptionTypes()) if (declared.isAssignableFrom(FinchScriptException.class)) throw refused;
                throw new FinchScriptException.Unchecked(refused);
            }
        });
        return type.cast(proxy);
    }

    /** A proxied word's answer as {@code m} returns it. */
    private static Object answer(Class<?> type, java.lang.reflect.Method m, Value v) throws FinchScriptException {
        if (m.getReturnType() == void.class) return null;
        String method = type.getSimpleName() + "." + m.getName();
        if (v == null || v.type() == dev.finch.ir.type.Type.Prim.UNIT) {
            throw new FinchScriptException(EmbedCode.NO_ANSWER.at(SCRIPT, "word '" + m.getName() + "' answered nothing, but " + method + " returns a value"));
        }
        if (m.getReturnType() == Object.class) return v.toJava();
        try {
            return v.as(m.getReturnType());
        } catch (RuntimeException notThat) {
            throw new FinchScriptException(EmbedCode.NO_ANSWER.at(SCRIPT, "word '" + m.getName() + "' answered a " + v.type() + ", which "
                    + method + " cannot return as a " + m.getReturnType().getSimpleName()));
        }
    }

    /**
     * Refused: Finch has no objects to implement an interface with.
     *
     * @throws IllegalArgumentException always; use {@link #getInterface(Class)}, whose methods call the session's words
     */
    @Override public <T> T getInterface(Object thiz, Class<T> type) {
        throw new IllegalArgumentException("Finch has no objects: use getInterface(" + (type == null ? "type" : type.getSimpleName()) + ".class)");
    }
}
