package dev.finch.ir.vocab;

import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.ir.vocab.WordSpec.Category;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shared vocabulary: one name per IR operation, used by every frontend (decisions D6), with its typed
 * signatures. This table is the single source of truth for the verifier's typing of ordinary words, the VM's
 * emitter table (a test fails when a word lacks an emitter), discovery tools and the generated documentation.
 */
public final class Vocabulary {
    private static final Map<String, WordSpec> WORDS = new LinkedHashMap<>();
    private static final Map<String, SyntaxSpec> SYNTAX = new LinkedHashMap<>();

    static {
        // Stack shuffles (polymorphic).
        word("dup", Category.STACK, "Duplicate the top value.", "a -> a a");
        word("drop", Category.STACK, "Discard the top value.", "a ->");
        word("swap", Category.STACK, "Exchange the top two values.", "a b -> b a");
        word("over", Category.STACK, "Copy the second value to the top.", "a b -> a b a");
        word("rot", Category.STACK, "Rotate the third value to the top.", "a b c -> b c a");
        word("nip", Category.STACK, "Discard the second value.", "a b -> b");
        word("tuck", Category.STACK, "Copy the top value below the second.", "a b -> b a b");

        // Arithmetic: int overflow and division by zero are execute errors, never wrap-around (D5).
        word("+", Category.ARITHMETIC, "Add.", "int int -> int", "float float -> float");
        word("-", Category.ARITHMETIC, "Subtract the top from the second.", "int int -> int", "float float -> float");
        word("*", Category.ARITHMETIC, "Multiply.", "int int -> int", "float float -> float");
        word("/", Category.ARITHMETIC, "Divide the second by the top (ints truncate toward zero).", "int int -> int", "float float -> float");
        word("mod", Category.ARITHMETIC, "Remainder of dividing the second by the top (sign of the dividend).", "int int -> int", "float float -> float");
        word("negate", Category.ARITHMETIC, "Negate.", "int -> int", "float -> float");
        word("int-to-float", Category.ARITHMETIC, "Convert an int to the nearest float.", "int -> float");

        // Comparison.
        word("=", Category.COMPARISON, "Structural equality of two values of one type.", "a a -> bool");
        word("<>", Category.COMPARISON, "Structural inequality.", "a a -> bool");
        for (String op : List.of("<", ">", "<=", ">=")) {
            word(op, Category.COMPARISON, "Ordered comparison of the second with the top.", "int int -> bool", "float float -> bool", "string string -> bool");
        }

        // Logic.
        word("and", Category.LOGIC, "Logical and of two bools.", "bool bool -> bool");
        word("or", Category.LOGIC, "Logical or of two bools.", "bool bool -> bool");
        word("not", Category.LOGIC, "Logical negation.", "bool -> bool");

        // Strings and bytes (D5: code points; strict UTF-8).
        word("string-append", Category.STRING, "Concatenate two strings.", "string string -> string");
        word("string-length", Category.STRING, "The number of Unicode code points.", "string -> int");
        word("int-to-string", Category.STRING, "Decimal spelling of an int.", "int -> string");
        word("float-to-string", Category.STRING, "Shortest round-trip spelling of a float.", "float -> string");
        word("string-to-int", Category.STRING, "Parse a decimal int; none when the text is not one.", "string -> option<int>");
        word("bytes-to-string", Category.BYTES, "Decode strict UTF-8; err describes the first malformed byte.", "bytes -> result<string,string>");
        word("string-to-bytes", Category.BYTES, "Encode as UTF-8.", "string -> bytes");

        // Output and control effects.
        word("say", Category.OUTPUT, "Append text to the response, exactly (no space, no newline); streamed as it runs.", "string -> ! {session.emit}");
        word("yield", Category.CONTROL, "Publish one value and suspend the run; resumed with unit.", "a -> yields<a,unit>");
        special("execute", Category.CONTROL, "Call the execution token or closure on top with the values below it.", "a xt -> b");

        // Options and results.
        word("some", Category.OPTION, "Wrap a value as present.", "a -> option<a>");
        word("none", Category.OPTION, "The absent option; its type comes from context.", "-> option<a>");
        word("is-some", Category.OPTION, "True when the option holds a value.", "option<a> -> bool");
        word("unwrap", Category.OPTION, "The payload of a some; E-OPTION-001 on none.", "option<a> -> a");
        word("ok", Category.RESULT, "Wrap a success; the error type comes from context.", "a -> result<a,e>");
        word("err", Category.RESULT, "Wrap a failure; the success type comes from context.", "e -> result<a,e>");
        word("is-ok", Category.RESULT, "True when the result is ok.", "result<a,e> -> bool");
        word("result-unwrap", Category.RESULT, "The payload of an ok; E-RESULT-001 on err.", "result<a,e> -> a");
        word("result-error", Category.RESULT, "The payload of an err; E-RESULT-002 on ok.", "result<a,e> -> e");

        // Closed variants.
        special("variant", Category.VARIANT, "variant<T,tag>: build a value of closed variant T with tag (consuming its payload, if it has one).", "a -> v");
        special("variant-get", Category.VARIANT, "variant-get<tag>: the payload if the value has that tag (some(unit) for a payload-free tag), else none.", "v -> option<a>");

        // Lists.
        special("empty-list", Category.LIST, "empty-list<T>: the empty list of T.", "-> list<a>");
        word("list-append", Category.LIST, "A new list with the value added at the end.", "list<a> a -> list<a>");
        word("list-get", Category.LIST, "The element at a zero-based index, or none.", "list<a> int -> option<a>");
        word("list-length", Category.LIST, "The number of elements.", "list<a> -> int");
        word("list-uncons", Category.LIST, "Split off the first element, or none for an empty list.", "list<a> -> option<record{head:a,tail:list<a>}>");

        // Maps (insertion-ordered).
        word("map-get", Category.MAP, "The value under a key, or none.", "map<k,v> k -> option<v>");
        word("map-set", Category.MAP, "A new map with the key set (an existing key keeps its position).", "map<k,v> k v -> map<k,v>");
        word("map-entries", Category.MAP, "The entries in insertion order.", "map<k,v> -> list<record{key:k,value:v}>");

        // Records.
        special("record-get", Category.RECORD, "\"field\" record-get: the field's value as some, verified against the record type.", "r -> option<a>");
        special("record-set", Category.RECORD, "value \"field\" record-set: a new record with the field replaced (same type).", "r a -> r");

        // JSON (managed, distinct from records and maps).
        word("json-parse", Category.JSON, "Parse strict JSON; err with a message on any malformed input.", "string -> result<json,string>");
        word("json-get", Category.JSON, "An object field, or none.", "json string -> option<json>");
        word("json-index", Category.JSON, "An array element, or none.", "json int -> option<json>");
        word("json-keys", Category.JSON, "An object's keys (empty for a non-object).", "json -> list<string>");
        word("json-as-string", Category.JSON, "The string, if the JSON is one.", "json -> option<string>");
        word("json-as-int", Category.JSON, "The int, if the JSON is an integral number in range.", "json -> option<int>");
        word("json-as-float", Category.JSON, "The number as a float, if the JSON is a number.", "json -> option<float>");
        word("json-as-bool", Category.JSON, "The bool, if the JSON is one.", "json -> option<bool>");
        word("json-as-map", Category.JSON, "An object as a string-keyed map, if the JSON is an object.", "json -> option<map<string,json>>");
        word("json-stringify", Category.JSON, "Compact JSON text.", "json -> string");

        // Inspection.
        word("vm-vocabulary", Category.INSPECTION, "The current typed vocabulary (core words and persisted definitions) as json.", "-> json");

        // µNorman support: words its lowering needs, usable from every frontend.
        word("list-prepend", Category.LIST, "A new list with the value added at the front (cons).", "a list<a> -> list<a>");
        word("show", Category.STRING, "Canonical text of a value: JSON with sorted keys and a tag for variants; money, durations and unlimited in µNorman literal syntax.", "a -> string");
        word("program-error", Category.CONTROL, "Stop with a checked run-time error (the program is wrong, not the world); never caught.", "string -> a");
        word("expect-ok", Category.RESULT, "The ok payload; an err stops the run with its displayed failure.", "result<a,e> -> a");
        word("money-from-micros", Category.ARITHMETIC, "Exact money from micro-dollars.", "int -> money");
        word("duration-from-millis", Category.ARITHMETIC, "An exact duration from milliseconds.", "int -> duration");
        word("money-unlimited", Category.ARITHMETIC, "Unlimited money (written ∞).", "-> money");
        word("duration-unlimited", Category.ARITHMETIC, "An unlimited duration (written ∞).", "-> duration");
        word("model-ask", Category.CONTROL, "Ask a granted model once (context, grant, ask key, site): the validated answer or a failure, through the run's model host.", "a string string string -> result<b,e> ! {model.ask(*)}");
        word("tool-capability", Category.CONTROL, "The capability value a µNorman tool grant names (and whether the tool keeps state); it confers nothing by itself (every call needs tool.call(grant,op)).", "string bool -> capability");
        word("tool-call", Category.CONTROL, "Call one operation of a granted tool once (capability, operation, arguments, result key): the validated result or a failure, through the run's tool host.", "capability string list<string> string -> result<b,e> ! {tool.call(*,*)}");
        word("budget-open", Category.CONTROL, "Open a budget scope of at most this money and time (nesting takes the smaller; spending is charged outside too).", "money duration ->");
        word("budget-close", Category.CONTROL, "Close the innermost budget scope.", "->");
        special("step-spawn", Category.CONTROL, "Start a closure (no inputs, one output, no yields) as a concurrent step of the run, on its deterministic scheduler; answers the handle to join. The step's effects are the spawn's; a step cannot pause, so one that would need approval stops the run (E-RUN-007).", "( -> a) -> task<a>");
        word("step-join", Category.CONTROL, "The step's value, waiting until it has ended; a step's checked run-time error stops the whole run.", "task<a> -> a");
        word("budget-remaining", Category.CONTROL, "The money and time left in the innermost budget scope.", "-> record{cost:money,time:duration}");

        // Files: refined paths (a root is availability, never authority) and the host words that use them.
        // Each requirement below is the conservative bound; the host boundary instantiates it with the
        // canonical concrete path of every call and checks that against the grants.
        word("path", Category.FILE, "Refine a relative name into a workspace path; '..', absolute names, NUL and wildcards are refused.", "string -> path");
        word("host-path", Category.FILE, "Refine a relative name under the installed root<host-machine>.", "string -> path<host-machine>");
        word("project-path", Category.FILE, "Refine a relative name under the installed root<project>.", "string -> path<project>");
        word("task-output-path", Category.FILE, "Refine a relative name under the installed root<task.output>.", "string -> path<task.output>");
        word("file-read", Category.FILE, "The bytes of a workspace file.", "path -> bytes ! {fs.read(${workspace}/**)}");
        word("file-write", Category.FILE, "Replace a workspace file's bytes, creating the file if needed; its directory must exist.", "path bytes -> ! {fs.write(${workspace}/**)}");
        word("file-size", Category.FILE, "A workspace file's size in bytes.", "path -> int ! {fs.read(${workspace}/**)}");
        word("file-slice", Category.FILE, "Up to length bytes from offset (at most 8 MiB; shorter at end of file).", "path int int -> bytes ! {fs.read(${workspace}/**)}");
        word("tree-list", Category.FILE, "Up to max entries under a directory, sorted, no symlinks (at most 100,000).",
                "path int -> record{entries:list<record{kind:string,path:string,size:int}>,truncated:bool} ! {fs.read(${workspace}/**)}");
        word("host-file-read", Category.FILE, "The bytes of a file under root<host-machine>.", "path<host-machine> -> bytes ! {fs.read(${host-machine}/**)}");
        word("host-file-write", Category.FILE, "Replace a file under root<host-machine>.", "path<host-machine> bytes -> ! {fs.write(${host-machine}/**)}");
        word("project-file-read", Category.FILE, "The bytes of a file under root<project>.", "path<project> -> bytes ! {fs.read(${project}/**)}");
        word("project-file-write", Category.FILE, "Replace a file under root<project>.", "path<project> bytes -> ! {fs.write(${project}/**)}");
        word("task-output-file-read", Category.FILE, "The bytes of a file under root<task.output>.", "path<task.output> -> bytes ! {fs.read(${task.output}/**)}");
        word("task-output-file-write", Category.FILE, "Replace a file under root<task.output>.", "path<task.output> bytes -> ! {fs.write(${task.output}/**)}");
        word("file-lines-open", Category.FILE, "Open a run-owned stream of the file's lines (each at most 1 MiB).", "path -> stream<string> ! {fs.read(${workspace}/**)}");
        word("csv-open", Category.FILE, "Open a run-owned stream of CSV records (quoted, comma-bearing and multiline fields).", "path -> stream<list<string>> ! {fs.read(${workspace}/**)}");
        word("csv-summary", Category.FILE, "Header and per-column facts of at most max_rows records, as json.", "path int -> json ! {fs.read(${workspace}/**)}");
        word("stream-next", Category.FILE, "The next item of a run-owned stream, or none at its end.", "stream<a> -> option<a>");
        word("stream-close", Category.FILE, "Release a run-owned stream.", "stream<a> ->");
        word("file-lines-next", Category.FILE, "Compatibility alias of stream-next for line streams.", "stream<string> -> option<string>");
        word("file-lines-close", Category.FILE, "Compatibility alias of stream-close for line streams.", "stream<string> ->");
        word("process-run", Category.PROCESS, "Run an executable directly (never a shell) with an argument list; bounded time and output.",
                "string list<string> -> record{exit:int,stderr:string,stdout:string} ! {process.run(**)}");

        // Syntax (no runtime signature).
        List<String> forth = List.of("forth");
        List<String> lisp = List.of("lisp");
        List<String> both = List.of("forth", "lisp");
        syntax(":", forth, ": name ( ins -- outs ) body ;", "Define a word; the signature is checked against the body.");
        syntax("if", both, "cond if … else … then | (if c a b)", "Two-way branch on a bool; both arms leave the same row.");
        syntax("if-some", forth, "opt if-some … else … then", "Branch on an option; the some edge receives the payload.");
        syntax("if-ok", forth, "res if-ok … else … then", "Branch on a result; ok and err edges receive their payloads.");
        syntax("begin", forth, "begin … while … repeat | begin … until", "Loops; the row at the loop head is invariant.");
        syntax("while", both, "begin test while body repeat | (while test body…)", "Loop while the test is true.");
        syntax("case", forth, "n case 1 of … endof otherwise … endcase", "Integer case with verified arms, no fallthrough.");
        syntax("constant", forth, "value constant name", "Define a constant in the dictionary.");
        syntax("?", forth, "res ?", "Propagate an err from a function whose sole return is a result.");
        syntax("[']", forth, "['] word", "Push an execution token for a word.");
        syntax("define", lisp, "(define (f x …) body…) | (define x value)", "Define a function or a value.");
        syntax("lambda", lisp, "(lambda (x …) body…)", "A closure.");
        syntax("let", lisp, "(let ((x v) …) body…)", "Local bindings.");
    }

    private Vocabulary() { }

    private static void word(String name, Category category, String doc, String... signatures) {
        add(name, category, false, doc, signatures);
    }

    private static void special(String name, Category category, String doc, String... signatures) {
        add(name, category, true, doc, signatures);
    }

    private static void add(String name, Category category, boolean special, String doc, String... signatures) {
        List<Type.Fn> overloads = new ArrayList<>();
        for (String s : signatures) overloads.add(TypeSyntax.parseSignature(s));
        if (WORDS.put(name, new WordSpec(name, overloads, category, special, doc)) != null) {
            throw new IllegalStateException("duplicate vocabulary word " + name);
        }
    }

    private static void syntax(String name, List<String> languages, String form, String doc) {
        SYNTAX.put(name, new SyntaxSpec(name, languages, form, doc));
    }

    /** The word spec, if {@code name} is a vocabulary word. */
    public static Optional<WordSpec> word(String name) { return Optional.ofNullable(WORDS.get(name)); }

    /** Every word, in documentation order. */
    public static List<WordSpec> words() { return List.copyOf(WORDS.values()); }

    /** Every piece of source syntax. */
    public static List<SyntaxSpec> syntax() { return List.copyOf(SYNTAX.values()); }

    public static Optional<SyntaxSpec> syntax(String name) { return Optional.ofNullable(SYNTAX.get(name)); }

    /** The names of every word, for "did you mean" suggestions. */
    public static java.util.Set<String> names() { return Collections.unmodifiableSet(WORDS.keySet()); }
}
