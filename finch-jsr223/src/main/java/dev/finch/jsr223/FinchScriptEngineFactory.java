package dev.finch.jsr223;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.SessionOptions;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.script.ScriptEngine;
import javax.script.ScriptEngineFactory;

/**
 * Finch as a JSR-223 scripting engine. {@code new ScriptEngineManager().getEngineByName("finch")} answers an engine
 * that takes Lisp or Co-Forth by the contract's rule (first non-whitespace {@code (} is Lisp); {@code finch-lisp},
 * {@code finch-forth} and {@code finch-norman} — or the extensions {@code lisp}, {@code fth}/{@code forth} and
 * {@code nm}/{@code norman} — answer engines of one language ({@link Lisp}, {@link Forth}, {@link Norman}). Each engine
 * evaluates in a session of its own ({@link FinchScriptEngine}).
 *
 * <p>The factories {@link java.util.ServiceLoader} finds make their engines over a default {@link Finch}, one per
 * factory; an application that configures its own (words, limits, hosts) and its sessions' authority (roots, grants)
 * makes the engine with {@code new FinchScriptEngineFactory(finch, options).getScriptEngine()}.
 */
public class FinchScriptEngineFactory implements ScriptEngineFactory {
    /** The engine's version, from the jar's manifest ({@code Implementation-Version}) when it has one. */
    static final String VERSION = Optional.ofNullable(FinchScriptEngineFactory.class.getPackage().getImplementationVersion()).orElse("development");

    private final Optional<Language> language;
    private final List<String> names;
    private final List<String> extensions;
    private final SessionOptions options;
    private Finch finch;

    /** The factory of {@code finch} engines over a default Finch (what {@link java.util.ServiceLoader} makes). */
    public FinchScriptEngineFactory() { this(null, SessionOptions.DEFAULT, Optional.empty(), List.of("finch", "Finch"), List.of()); }

    /**
     * The factory of {@code finch} engines over the application's own Finch.
     *
     * @param finch the Finch every engine's session is opened on (its words, limits and hosts); the caller closes it
     * @param options what each engine's session is opened with (roots, grants, bindings); a script's context may add a
     *     workspace and grants ({@link FinchScriptEngine#WORKSPACE}, {@link FinchScriptEngine#GRANTS})
     * @throws NullPointerException if either is null
     */
    public FinchScriptEngineFactory(Finch finch, SessionOptions options) {
        this(Objects.requireNonNull(finch, "finch"), Objects.requireNonNull(options, "options"), Optional.empty(), List.of("finch", "Finch"), List.of());
    }

    FinchScriptEngineFactory(Finch finch, SessionOptions options, Optional<Language> language, List<String> names, List<String> extensions) {
        this.finch = finch;
        this.options = options;
        this.language = language;
        this.names = List.copyOf(names);
        this.extensions = List.copyOf(extensions);
    }

    /** {@code finch-lisp}: every script is Lisp. */
    public static final class Lisp extends FinchScriptEngineFactory {
        /** The factory {@code ScriptEngineManager} finds: a Finch of its own, no roots or grants (give them through the context: {@link FinchScriptEngine#WORKSPACE}). */
        public Lisp() { super(null, SessionOptions.DEFAULT, Optional.of(Language.LISP), List.of("finch-lisp"), List.of("lisp")); }

        /**
         * Engines of this language over the application's own Finch.
         *
         * @param finch the Finch every engine's session is opened on (its words, limits and hosts); the caller closes it
         * @param options what each engine's session is opened with (roots, grants, bindings)
         * @throws NullPointerException if either is null
         */
        public Lisp(Finch finch, SessionOptions options) {
            super(Objects.requireNonNull(finch, "finch"), Objects.requireNonNull(options, "options"), Optional.of(Language.LISP), List.of("finch-lisp"), List.of("lisp"));
        }
    }

    /** {@code finch-forth}: every script is Co-Forth. */
    public static final class Forth extends FinchScriptEngineFactory {
        /** The factory {@code ScriptEngineManager} finds: a Finch of its own, no roots or grants (give them through the context: {@link FinchScriptEngine#WORKSPACE}). */
        public Forth() { super(null, SessionOptions.DEFAULT, Optional.of(Language.FORTH), List.of("finch-forth"), List.of("fth", "forth")); }

        /**
         * Engines of this language over the application's own Finch.
         *
         * @param finch the Finch every engine's session is opened on (its words, limits and hosts); the caller closes it
         * @param options what each engine's session is opened with (roots, grants, bindings)
         * @throws NullPointerException if either is null
         */
        public Forth(Finch finch, SessionOptions options) {
            super(Objects.requireNonNull(finch, "finch"), Objects.requireNonNull(options, "options"), Optional.of(Language.FORTH), List.of("finch-forth"),
                    List.of("fth", "forth"));
        }
    }

    /** {@code finch-norman}: every script is µNorman. */
    public static final class Norman extends FinchScriptEngineFactory {
        /** The factory {@code ScriptEngineManager} finds: a Finch of its own, no roots or grants (give them through the context: {@link FinchScriptEngine#WORKSPACE}). */
        public Norman() { super(null, SessionOptions.DEFAULT, Optional.of(Language.NORMAN), List.of("finch-norman"), List.of("nm", "norman")); }

        /**
         * Engines of this language over the application's own Finch.
         *
         * @param finch the Finch every engine's session is opened on (its words, limits and hosts); the caller closes it
         * @param options what each engine's session is opened with (roots, grants, bindings)
         * @throws NullPointerException if either is null
         */
        public Norman(Finch finch, SessionOptions options) {
            super(Objects.requireNonNull(finch, "finch"), Objects.requireNonNull(options, "options"), Optional.of(Language.NORMAN), List.of("finch-norman"),
                    List.of("nm", "norman"));
        }
    }

    /** The options each engine's session opens with (roots, grants). */
    SessionOptions options() { return options; }

    /** The Finch this factory's engines run on (made on first use when none was given). */
    synchronized Finch finch() {
        if (finch == null) finch = Finch.builder().build();
        return finch;
    }

    /** The language every script of this factory's engines is, or empty: by the contract's rule. */
    Optional<Language> language() { return language; }

    /**
     * "Finch", or "Finch Lisp", "Finch Co-Forth", "Finch µNorman": distinct, because {@code ScriptEngineManager} keeps
     * one factory per engine name and version.
     */
    @Override public String getEngineName() {
        return language.map(l -> switch (l) { case LISP -> "Finch Lisp"; case FORTH -> "Finch Co-Forth"; case NORMAN -> "Finch µNorman"; })
                .orElse("Finch");
    }

    /** The jar's {@code Implementation-Version} (Finch's version), or {@code "development"} when run from classes. */
    @Override public String getEngineVersion() { return VERSION; }

    /** {@code lisp}; {@code fth} and {@code forth}; {@code nm} and {@code norman}; none for {@code finch}, which takes either of Lisp and Co-Forth. */
    @Override public List<String> getExtensions() { return extensions; }

    /** None: Finch's languages have no registered MIME types. */
    @Override public List<String> getMimeTypes() { return List.of(); }

    /** {@code finch} and {@code Finch}, or the one name of a language's engine ({@code finch-lisp}, {@code finch-forth}, {@code finch-norman}). */
    @Override public List<String> getNames() { return names; }

    /** The language's spelling ({@code lisp}, {@code forth}, {@code norman}), or {@code finch} for the engine that takes either. */
    @Override public String getLanguageName() { return language.map(Language::spelling).orElse("finch"); }

    /** The contract the languages implement, {@code FINCH-VM-TYPED/1} ({@link dev.finch.Outcome#PROTOCOL}). */
    @Override public String getLanguageVersion() { return dev.finch.Outcome.PROTOCOL; }

    /** The standard keys; {@code THREADING} is null: an engine runs one script at a time (its session's rule). */
    @Override public Object getParameter(String key) {
        return switch (key) {
            case ScriptEngine.ENGINE -> getEngineName();
            case ScriptEngine.ENGINE_VERSION -> getEngineVersion();
            case ScriptEngine.NAME -> names.get(0);
            case ScriptEngine.LANGUAGE -> getLanguageName();
            case ScriptEngine.LANGUAGE_VERSION -> getLanguageVersion();
            default -> null;
        };
    }

    /** Finch has no objects: a call is of a word, {@code (m a b)} in Lisp, {@code a b m} in Co-Forth. */
    @Override public String getMethodCallSyntax(String obj, String m, String... args) {
        if (language.orElse(Language.LISP) == Language.FORTH) return String.join(" ", args) + (args.length == 0 ? "" : " ") + m;
        return "(" + m + (args.length == 0 ? "" : " " + String.join(" ", args)) + ")";
    }

    /** A statement that says {@code toDisplay}: {@code (say "…")}, or {@code "…" say} in Co-Forth, the text quoted and escaped. */
    @Override public String getOutputStatement(String toDisplay) {
        String quoted = "\"" + toDisplay.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
        return language.orElse(Language.LISP) == Language.FORTH ? quoted + " say" : "(say " + quoted + ")";
    }

    /** The statements one per line: a program runs its top-level forms in order in either language. */
    @Override public String getProgram(String... statements) { return String.join("\n", statements); }

    /** A new engine over a session of its own, begun at its first script (see {@link FinchScriptEngine}). */
    @Override public ScriptEngine getScriptEngine() { return new FinchScriptEngine(this); }
}
