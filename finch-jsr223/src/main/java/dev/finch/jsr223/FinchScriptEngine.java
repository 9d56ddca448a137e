package dev.finch.jsr223;

import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
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
 *   <li>Every diagnostic — a parse, verify or run-time error, a pause for a capability the session was not granted —
 *       is a {@link ScriptException} with its code, message, source, line and column; nothing is committed and a
 *       paused run is cancelled.</li>
 *   <li>{@link Invocable}: {@code invokeFunction("sq", 7)} calls the session's word {@code sq} ({@link Session#call});
 *       {@code getInterface(Type.class)} answers a proxy whose methods call the words of their names. Finch has no
 *       objects, so the {@code invokeMethod} and {@code getInterface(thiz, …)} forms are refused.</li>
 * </ul>
 * Like its session, an engine runs one script at a time.
 */
public final class FinchScriptEngine extends AbstractScriptEngine implements Invocable {
    private final FinchScriptEngineFactory factory;
    private final Session session;
    /** What each binding was when last made a constant, so an unchanged binding is not defined again. */
    private final Map<String, Value> defined = new HashMap<>();

    FinchScriptEngine(FinchScriptEngineFactory factory) {
        this.factory = factory;
        this.session = factory.finch().newSession(factory.options());
    }

    /** The session this engine evaluates in (its stack, dictionary, grants and pending executions). */
    public Session session() { return session; }

    @Override public Object eval(Reader reader, ScriptContext context) throws ScriptException {
        StringBuilder b = new StringBuilder();
        char[] buf = new char[8192];
        try {
            for (int n; (n = reader.read(buf)) > 0; ) b.append(buf, 0, n);
        } catch (IOException e) {
            throw new ScriptException(e);
        }
        return eval(b.toString(), context);
    }

    @Override public Object eval(String script, ScriptContext context) throws ScriptException {
        if (script == null) throw new NullPointerException("script");
        bind(context.getBindings(ScriptContext.ENGINE_SCOPE));
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
    private void bind(Bindings bindings) throws ScriptException {
        if (bindings == null) return;
        for (Map.Entry<String, Object> e : bindings.entrySet()) {
            String key = e.getKey();
            if (key == null || key.startsWith("javax.script.") || !Session.isConstantName(key)) continue;
            Value v;
            try {
                v = e.getValue() instanceof Value given ? given : Value.of(e.getValue());
            } catch (IllegalArgumentException notFinch) {
                throw new ScriptException("binding '" + key + "' holds a " + (e.getValue() == null ? "null" : e.getValue().getClass().getName())
                        + ", which Finch cannot hold: " + notFinch.getMessage());
            }
            if (v.equals(defined.get(key))) continue;
            try {
                session.define(key, v);
            } catch (IllegalArgumentException clash) {
                throw new ScriptException("binding '" + key + "': " + clash.getMessage());
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
            String why = su.pendingRequest().isPresent()
                    ? "the script needs " + String.join(", ", o.requiredCapabilities()) + ", which this engine's session was not granted "
                    + "(grant it in the SessionOptions of the engine's factory); nothing was done"
                    : "the script yielded a value (" + su.yielded().map(dev.finch.StackEntry::display).orElse("?") + "); an engine resumes only unit yields";
            throw new ScriptException(why, o.sourceId(), -1, -1);
        }
        throw exception(o);
    }

    private static ScriptException exception(Outcome o) {
        List<Diagnostic> ds = o.diagnostics();
        if (ds.isEmpty()) return new ScriptException("the script " + o.status().spelling() + " without a diagnostic", o.sourceId(), -1, -1);
        Diagnostic d = ds.get(0);
        String message = d.code() + ": " + d.message() + (ds.size() > 1 ? " (and " + (ds.size() - 1) + " more)" : "");
        int line = d.origin().line() > 0 ? d.origin().line() : -1;
        int column = d.origin().column() > 0 ? d.origin().column() : -1;
        return new ScriptException(message, d.origin().source(), line, column);
    }

    /** The value a completed script left on top of the stack, as Java, or null when it left none. */
    private static Object top(Outcome o, int before) {
        List<Value> values = o.values();
        return values.size() > before ? values.get(values.size() - 1).toJava() : null;
    }

    @Override public Bindings createBindings() { return new SimpleBindings(); }

    @Override public ScriptEngineFactory getFactory() { return factory; }

    // ---- Invocable ----------------------------------------------------------------------------------------------

    /** Calls the session's word {@code name} with {@code args} as typed values; answers its top result as Java, or null. */
    @Override public Object invokeFunction(String name, Object... args) throws ScriptException, NoSuchMethodException {
        Value v = call(name, args);
        return v == null ? null : v.toJava();
    }

    private Value call(String name, Object... args) throws ScriptException, NoSuchMethodException {
        if (name == null) throw new NullPointerException("name");
        if (!session.definitions().containsKey(name) && session.vocabulary().word(name).isEmpty()) {
            throw new NoSuchMethodException("no word or definition named '" + name + "' in this engine's session");
        }
        List<Value> values = new ArrayList<>();
        for (Object a : args == null ? new Object[0] : args) {
            try {
                values.add(a instanceof Value given ? given : Value.of(a));
            } catch (IllegalArgumentException e) {
                throw new ScriptException("an argument of '" + name + "' is a " + (a == null ? "null" : a.getClass().getName())
                        + ", which Finch cannot hold: " + e.getMessage());
            }
        }
        // A call's values are the word's outputs only; the session's stack is not touched.
        Outcome o = settle(session.call(name, values, OutputSink.NONE));
        List<Value> out = o.values();
        return out.isEmpty() ? null : out.get(out.size() - 1);
    }

    @Override public Object invokeMethod(Object thiz, String name, Object... args) {
        throw new IllegalArgumentException("Finch has no objects: call a word with invokeFunction(\"" + name + "\", …)");
    }

    /** A proxy whose methods call the words of their names, each answer converted to the method's return type. */
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
            Value v = call(m.getName(), args);
            if (m.getReturnType() == void.class) return null;
            if (v == null) throw new ScriptException("word '" + m.getName() + "' answered nothing, but " + m + " returns a value");
            return m.getReturnType() == Object.class ? v.toJava() : v.as(m.getReturnType());
        });
        return type.cast(proxy);
    }

    @Override public <T> T getInterface(Object thiz, Class<T> type) {
        throw new IllegalArgumentException("Finch has no objects: use getInterface(" + (type == null ? "type" : type.getSimpleName()) + ".class)");
    }
}
