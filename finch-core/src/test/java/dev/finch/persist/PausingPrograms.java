package dev.finch.persist;

import dev.finch.Language;
import dev.finch.Submission;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random well-typed programs that pause while they hold values (issue 33's law, {@link ImageLaw}): each program makes
 * a few values of every kind a run can hold — data of every shape, closures, execution tokens, fibers, CPU tasks,
 * output handles, open streams — keeps each in one of the places a paused run keeps things — the stack, a top-level
 * local, a top-level definition, a word's local or parameter (a polymorphic slot), a word that yields, a closure's capture, a loop, two
 * nested words' frames, a record or list field — pauses there (a read nobody granted, or a top-level yield), and then
 * uses the value (calls the closure, advances the fiber, joins the task, writes to the handle, reads the stream). The
 * same plan is written in Co-Forth and in Lisp; a later turn reads the constants and calls the words again.
 */
public final class PausingPrograms {
    private PausingPrograms() { }

    /** What a value is. */
    public enum Kind { INT, FLOAT, STRING, BOOL, SYMBOL, BYTES, LIST, MAP, RECORD, OPTION, RESULT, PATH, CLOSURE, QUOTE, FIBER, TASK, OUTPUT, STREAM }

    /** Where a paused run keeps it. */
    public enum Holder { STACK, LOCAL, CONSTANT, WORD_LOCAL, WORD_PARAM, WORD_YIELD, CLOSURE, LOOP, NESTED, RECORD_FIELD, LIST_ELEMENT }

    /** One value kept in one place, across a pause (a yield only where the language allows one there). */
    public record Part(Kind kind, Holder holder, boolean yield) { }

    /** The workspace's files: the file a stream reads (the grant names it, and no other). */
    public static final String DATA = "data.txt";
    public static final String DATA_TEXT = "first\nsecond\nthird\n";
    public static final String GRANT = "fs.read(${workspace}/" + DATA + ")";

    /** A program and its later turns (one per line of {@code later}), in {@code language}. */
    public record Program(Language language, String text, String later) {
        public List<Submission> turns() { return List.of(Submission.of(text, "program").withLanguage(language)); }

        public List<Submission> laterTurns() {
            List<Submission> out = new ArrayList<>();
            for (String line : later.split("\n")) if (!line.isBlank()) out.add(Submission.of(line, "later").withLanguage(language));
            return out;
        }

        @Override public String toString() { return language.spelling() + ":\n" + text + (later.isBlank() ? "" : "later:\n" + later); }
    }

    /** {@code parts} written in {@code language}, literals drawn from {@code seed}. */
    public static Program write(Language language, List<Part> parts, long seed) {
        Random r = new Random(seed);
        return language == Language.LISP ? lisp(parts, r) : forth(parts, r);
    }

    // ------------------------------------------------------------------------------------------------ Co-Forth

    /** A Co-Forth value: the code that pushes it, its type, and the code that uses it (consumes it, leaves what it shows). */
    private record FValue(String push, String type, String use) { }

    private static final String F_PAUSE = "\"pause.txt\" path file-read drop";

    private static Program forth(List<Part> parts, Random r) {
        StringBuilder defs = new StringBuilder();
        StringBuilder main = new StringBuilder();
        StringBuilder later = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            FValue v = forthValue(p.kind(), i, r, defs);
            // A yield pauses only the top level here; inside a word or closure the read pauses instead.
            String pause = p.yield() ? "unit yield" : F_PAUSE;
            switch (p.holder()) {
                case STACK -> main.append(v.push()).append(' ').append(pause).append(' ').append(v.use()).append('\n');
                case LOCAL -> main.append(v.push()).append(" :> x").append(i).append(' ').append(pause).append(" x").append(i).append(' ').append(v.use()).append('\n');
                case CONSTANT -> {
                    main.append(v.push()).append(" constant c").append(i).append(' ').append(pause).append(" c").append(i).append(' ').append(v.use()).append('\n');
                    later.append("c").append(i).append(' ').append(v.use()).append('\n');
                }
                case WORD_LOCAL -> {
                    defs.append(": w").append(i).append(' ').append(v.push()).append(" :> x ").append(F_PAUSE).append(" x ;\n");
                    main.append("w").append(i).append(' ').append(v.use()).append('\n');
                }
                case WORD_YIELD -> {
                    // A yield inside a word: its signature declares it.
                    defs.append(": w").append(i).append(" ( -- ").append(v.type()).append(" ! {fs.read(${workspace}/**)} yields<unit,unit> ) ").append(v.push())
                            .append(" :> x unit yield x ;\n");
                    main.append("w").append(i).append(' ').append(v.use()).append('\n');
                }
                case WORD_PARAM -> {
                    // Generic: the value sits in a slot of a type variable.
                    defs.append(": w").append(i).append(" :> x ").append(F_PAUSE).append(" x ;\n");
                    main.append(v.push()).append(" w").append(i).append(' ').append(v.use()).append('\n');
                    later.append(v.push()).append(" w").append(i).append(' ').append(v.use()).append('\n');
                }
                case CLOSURE -> main.append(v.push()).append(" :> x").append(i).append(" [: ( -- ").append(v.type())
                        .append(" ! {fs.read(${workspace}/**)} ) ").append(F_PAUSE).append(" x").append(i).append(" ;] execute ").append(v.use()).append('\n');
                case LOOP -> main.append(v.push()).append(" 0 :> i").append(i).append(" begin i").append(i).append(" 2 < while ").append(pause)
                        .append(" i").append(i).append(" 1 + :> i").append(i).append(" repeat ").append(v.use()).append('\n');
                case NESTED -> {
                    defs.append(": a").append(i).append(' ').append(F_PAUSE).append(" ;\n");
                    defs.append(": b").append(i).append(" :> x 1 :> n a").append(i).append(" x ;\n");
                    main.append(v.push()).append(" b").append(i).append(' ').append(v.use()).append('\n');
                }
                case RECORD_FIELD -> main.append("{ f: ").append(v.push()).append(" } ").append(pause).append(" \"f\" record-get unwrap ").append(v.use()).append('\n');
                case LIST_ELEMENT -> main.append("[ ").append(v.push()).append(" ] ").append(pause).append(" 0 list-get unwrap ").append(v.use()).append('\n');
            }
        }
        return new Program(Language.FORTH, defs + main.toString(), later.toString());
    }

    private static FValue forthValue(Kind k, int i, Random r, StringBuilder defs) {
        return switch (k) {
            case INT -> new FValue(Long.toString(r.nextInt(2001) - 1000), "int", "");
            case FLOAT -> new FValue((r.nextInt(2001) - 1000) + ".25", "float", "");
            case STRING -> new FValue(forthString(text(r)), "string", "");
            case BOOL -> new FValue(r.nextBoolean() ? "true" : "false", "bool", "");
            case SYMBOL -> new FValue("'sym" + r.nextInt(100), "symbol", "");
            case BYTES -> new FValue(forthString(text(r)) + " string-to-bytes", "bytes", "");
            case LIST -> new FValue("[ " + r.nextInt(100) + " " + r.nextInt(100) + " ]", "list<int>", "");
            case MAP -> new FValue("map{ " + forthString(text(r)) + " " + r.nextInt(100) + " \"k\" 2 }map", "map<string,int>", "");
            case RECORD -> new FValue("{ a: " + r.nextInt(100) + " b: " + forthString(text(r)) + " }", "record{a:int,b:string}", "");
            case OPTION -> new FValue("\"" + r.nextInt(100) + "\" string-to-int", "option<int>", "");
            case RESULT -> new FValue("\"{\\\"a\\\": " + r.nextInt(100) + "}\" json-parse", "result<json,string>", "");
            case PATH -> new FValue("\"dir/f" + r.nextInt(10) + ".txt\" path", "path", "");
            case CLOSURE -> {
                int k2 = r.nextInt(50);
                yield new FValue(k2 + " :> k" + i + " [: ( int -- int ) k" + i + " + ;]", "(int -> int)", "5 swap execute");
            }
            case QUOTE -> {
                defs.append(": q").append(i).append(" ( int -- int ) ").append(r.nextInt(9) + 2).append(" * ;\n");
                yield new FValue(r.nextBoolean() ? "['] q" + i : "['] negate", "(int -> int)", "5 swap execute");
            }
            case FIBER -> new FValue("[: ( -- string yields<int,unit> ) 1 yield 2 yield \"done\" ;] fiber-new dup fiber-next drop",
                    "fiber<int,string>", "dup fiber-next swap fiber-join");
            case TASK -> new FValue("[: ( -- int ) " + r.nextInt(100) + " 1 + ;] defer-cpu", "task<int>", "task-join");
            case OUTPUT -> new FValue("\"out" + i + "\" output-open dup \"half\" output-replace", "resource<output>",
                    "dup \"done\" output-replace output-close");
            case STREAM -> new FValue("\"" + DATA + "\" path file-lines-open dup stream-next drop", "stream<string>",
                    "dup stream-next swap dup stream-next swap stream-close");
        };
    }

    // ---------------------------------------------------------------------------------------------------- Lisp

    /** A Lisp value: the expression that makes it, and how to use it ({@code %s} is the value's expression). */
    private record LValue(String make, String use) {
        String used(String expr) { return use.formatted(expr); }
    }

    private static final String L_PAUSE = "(when true (file-read (path \"pause.txt\")))";

    private static Program lisp(List<Part> parts, Random r) {
        StringBuilder defs = new StringBuilder();
        StringBuilder main = new StringBuilder();
        StringBuilder later = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            LValue v = lispValue(p.kind(), i, r, defs);
            // A yield is a top-level form of its own: the value is held across it by a definition or the stack.
            switch (p.holder()) {
                case STACK -> {
                    if (p.yield()) main.append("(define s").append(i).append(' ').append(v.make()).append(")\n(yield)\n").append(v.used("s" + i)).append('\n');
                    else main.append("(let ((s ").append(v.make()).append(")) ").append(L_PAUSE).append(' ').append(v.used("s")).append(")\n");
                }
                case LOCAL -> main.append("(let ((x").append(i).append(' ').append(v.make()).append(")) ").append(L_PAUSE).append(' ')
                        .append(v.used("x" + i)).append(")\n");
                case CONSTANT -> {
                    main.append("(define c").append(i).append(' ').append(v.make()).append(")\n").append(p.yield() ? "(yield)" : L_PAUSE).append('\n')
                            .append(v.used("c" + i)).append('\n');
                    later.append(v.used("c" + i)).append('\n');
                }
                case WORD_LOCAL -> {
                    defs.append("(define (w").append(i).append(") (let ((x ").append(v.make()).append(")) ").append(L_PAUSE).append(" x))\n");
                    main.append(v.used("(w" + i + ")")).append('\n');
                }
                case WORD_YIELD -> {
                    defs.append("(define (w").append(i).append(") (let ((x ").append(v.make()).append(")) (yield) x))\n");
                    main.append(v.used("(w" + i + ")")).append('\n');
                }
                case WORD_PARAM -> {
                    defs.append("(define (w").append(i).append(" x) ").append(L_PAUSE).append(" x)\n");
                    main.append(v.used("(w" + i + ' ' + v.make() + ")")).append('\n');
                    later.append(v.used("(w" + i + ' ' + v.make() + ")")).append('\n');
                }
                case CLOSURE -> main.append("(let ((x").append(i).append(' ').append(v.make()).append(")) ").append(v.used("((lambda () " + L_PAUSE + " x" + i + "))"))
                        .append(")\n");
                case LOOP -> main.append("(let loop").append(i).append(" ((i 0) (acc ").append(v.make()).append(")) (if (= i 2) ").append(v.used("acc"))
                        .append(" (begin ").append(L_PAUSE).append(" (loop").append(i).append(" (+ i 1) acc))))\n");
                case NESTED -> {
                    defs.append("(define (a").append(i).append(") ").append(L_PAUSE).append(")\n");
                    defs.append("(define (b").append(i).append(" x) (let ((n 1)) (a").append(i).append(") x))\n");
                    main.append(v.used("(b" + i + ' ' + v.make() + ")")).append('\n');
                }
                case RECORD_FIELD -> main.append("(let ((r { :f ").append(v.make()).append(" })) ").append(L_PAUSE).append(' ')
                        .append(v.used("(unwrap (record-get r \"f\"))")).append(")\n");
                case LIST_ELEMENT -> main.append("(let ((l (list ").append(v.make()).append("))) ").append(L_PAUSE).append(' ')
                        .append(v.used("(unwrap (list-get l 0))")).append(")\n");
            }
        }
        return new Program(Language.LISP, defs + main.toString(), later.toString());
    }

    private static LValue lispValue(Kind k, int i, Random r, StringBuilder defs) {
        return switch (k) {
            case INT -> new LValue(Long.toString(r.nextInt(2001) - 1000), "%s");
            case FLOAT -> new LValue((r.nextInt(2001) - 1000) + ".25", "%s");
            case STRING -> new LValue(lispString(text(r)), "%s");
            case BOOL -> new LValue(r.nextBoolean() ? "true" : "false", "%s");
            case SYMBOL -> new LValue("'sym" + r.nextInt(100), "%s");
            case BYTES -> new LValue("(string-to-bytes " + lispString(text(r)) + ")", "%s");
            case LIST -> new LValue("(list " + r.nextInt(100) + " " + r.nextInt(100) + ")", "%s");
            case MAP -> new LValue("(map " + lispString(text(r)) + " " + r.nextInt(100) + " \"k\" 2)", "%s");
            case RECORD -> new LValue("{ :a " + r.nextInt(100) + " :b " + lispString(text(r)) + " }", "%s");
            case OPTION -> new LValue("(string-to-int \"" + r.nextInt(100) + "\")", "%s");
            case RESULT -> new LValue("(json-parse \"{\\\"a\\\": " + r.nextInt(100) + "}\")", "%s");
            case PATH -> new LValue("(path \"dir/f" + r.nextInt(10) + ".txt\")", "%s");
            case CLOSURE -> new LValue("(let ((k " + r.nextInt(50) + ")) (lambda (y) (+ y k)))", "(%s 5)");
            case QUOTE -> {
                defs.append("(define (q").append(i).append(" n) (* n ").append(r.nextInt(9) + 2).append("))\n");
                yield new LValue("(lambda (n) (q" + i + " n))", "(%s 5)");
            }
            case FIBER -> new LValue("(let ((f (fiber-new (lambda () (yield 1) (yield 2) \"done\")))) (fiber-next f) f)",
                    "(let ((f %s)) (fiber-next f) (fiber-join f))");
            case TASK -> new LValue("(defer :cpu (lambda () (+ " + r.nextInt(100) + " 1)))", "(task-join %s)");
            case OUTPUT -> new LValue("(let ((h (output-open \"out" + i + "\"))) (output-replace h \"half\") h)",
                    "(let ((h %s)) (output-replace h \"done\") (output-close h))");
            case STREAM -> new LValue("(let ((s (file-lines-open (path \"" + DATA + "\")))) (stream-next s) s)",
                    "(let ((s %s)) (stream-next s) (let ((n (stream-next s))) (stream-close s) n))");
        };
    }

    // ----------------------------------------------------------------------------------------------- literals

    private static final String[] WORDS = {"a", "orders: 3", "", "straße", "é", "☃", "tab\there", "q\"uote", "back\\slash", "日本", "line\nbreak"};

    private static String text(Random r) { return WORDS[r.nextInt(WORDS.length)] + (r.nextBoolean() ? "" : Integer.toString(r.nextInt(1000))); }

    private static String forthString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static String lispString(String s) { return forthString(s); }

    /** All parts a program may have, for an exhaustive sweep. */
    public static List<Part> allParts() {
        List<Part> out = new ArrayList<>();
        for (Kind k : Kind.values()) for (Holder h : Holder.values()) out.add(new Part(k, h, false));
        return out;
    }
}
