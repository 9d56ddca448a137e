package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Issue 4 end to end: every structured-value word and form, in both spellings (Co-Forth and Lisp), through
 * {@link Finch} sessions, with its failure edge. Each program runs in a fresh session; stacks are compared as
 * {@code type display} pairs (decisions D4).
 */
class StructuredValuesTest {
    private static final Finch FINCH = Finch.create();
    private static final Language FORTH = Language.FORTH;
    private static final Language LISP = Language.LISP;

    // ------------------------------------------------------------------------------------------------ helpers

    static Outcome run(Language lang, String text) {
        return FINCH.newSession().submit(Submission.of(text, lang == LISP ? "t.lisp" : "t.fth").withLanguage(lang));
    }

    static List<String> stackOf(Outcome o) {
        List<String> out = new ArrayList<>();
        for (StackEntry e : o.stack()) out.add(e.type() + " " + e.display());
        return out;
    }

    /** The program completes and leaves exactly these {@code type display} entries, bottom to top. */
    static void leaves(Language lang, String text, String... entries) {
        Outcome o = run(lang, text);
        assertThat(o.status()).as("%s: %s -> %s", lang, text, o.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stackOf(o)).as("%s: %s", lang, text).containsExactly(entries);
    }

    /** The program completes with this say output. */
    static void says(Language lang, String text, String output) {
        Outcome o = run(lang, text);
        assertThat(o.status()).as("%s: %s -> %s", lang, text, o.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).as("%s: %s", lang, text).isEqualTo(output);
    }

    /** The program fails with this first diagnostic (phase and code), committing nothing. */
    static Diagnostic fails(Language lang, String text, String phase, String code) {
        Outcome o = run(lang, text);
        assertThat(o.status()).as("%s: %s", lang, text).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics()).as("%s: %s", lang, text).isNotEmpty();
        Diagnostic d = o.diagnostics().get(0);
        assertThat(d.phase().toString().toLowerCase(java.util.Locale.ROOT) + " " + d.code()).as("%s: %s -> %s", lang, text, d.message())
                .isEqualTo(phase + " " + code);
        assertThat(o.stack()).isEmpty();
        assertThat(o.vmRevision()).isZero();
        return d;
    }

    // ------------------------------------------------------------------------------------------------ options

    @Nested
    class Options {
        @Test
        void someNoneIsSomeUnwrap() {
            leaves(FORTH, "1 some", "option<int> (some 1)");
            leaves(LISP, "(some 1)", "option<int> (some 1)");
            leaves(FORTH, "1 some is-some", "bool true");
            leaves(LISP, "(is-some (some 1))", "bool true");
            leaves(FORTH, ": nothing ( -- option<int> ) none ; nothing is-some", "bool false");
            leaves(LISP, "(define (nothing) : option<int> (none)) (is-some (nothing))", "bool false");
            leaves(FORTH, "2 some unwrap", "int 2");
            leaves(LISP, "(unwrap (some 2))", "int 2");
        }

        @Test
        void unwrapOfNoneIsTheContractCode() {
            fails(FORTH, ": nothing ( -- option<int> ) none ; nothing unwrap", "execute", "E-OPTION-001");
            fails(LISP, "(unwrap (list-get (list 1) 5))", "execute", "E-OPTION-001");
        }

        @Test
        void noneTakesItsTypeFromContext() {
            // From a declared signature, and from the other arm of a merge.
            leaves(FORTH, ": nothing ( -- option<string> ) none ; nothing", "option<string> (none)");
            leaves(LISP, "(define (nothing) : option<string> (none)) (nothing)", "option<string> (none)");
            leaves(FORTH, "true if none else 1 some then", "option<int> (none)");
            leaves(LISP, "(if true (none) (some 1))", "option<int> (none)");
            // With no context at all, the value's type is never determined: a verify error, not a guess.
            fails(FORTH, "none", "verify", "E-VERIFY-024");
            fails(LISP, "(none)", "verify", "E-VERIFY-024");
        }

        @Test
        void ifSomeAndMatchOption() {
            leaves(FORTH, "3 some if-some 1 + else 0 then", "int 4");
            leaves(LISP, "(match-option (some 3) (some x (+ x 1)) (none 0))", "int 4");
            leaves(LISP, "(match (list-get (list 1) 9) (some x x) (none 0))", "int 0");
            // Both edges must merge with one row.
            fails(FORTH, "3 some if-some 1 + else \"no\" then", "verify", "E-VERIFY-004");
            fails(LISP, "(match-option (some 3) (some x (+ x 1)) (none \"no\"))", "verify", "E-TYPE-001");
        }
    }

    // ------------------------------------------------------------------------------------------------ results

    @Nested
    class Results {
        @Test
        void okErrIsOk() {
            leaves(FORTH, "1 ok is-ok", "bool true");
            leaves(LISP, "(is-ok (ok 1))", "bool true");
            leaves(FORTH, "\"x\" err is-ok", "bool false");
            leaves(LISP, "(is-ok (err \"x\"))", "bool false");
        }

        @Test
        void resultUnwrapAndResultErrorWithTheirCodes() {
            String okF = ": good ( -- result<int,string> ) 3 ok ; ";
            String errF = ": bad ( -- result<int,string> ) \"broken\" err ; ";
            String okL = "(define (good) : result<int,string> (ok 3)) ";
            String errL = "(define (bad) : result<int,string> (err \"broken\")) ";
            leaves(FORTH, okF + "good result-unwrap", "int 3");
            leaves(LISP, okL + "(result-unwrap (good))", "int 3");
            leaves(FORTH, errF + "bad result-error", "string \"broken\"");
            leaves(LISP, errL + "(result-error (bad))", "string \"broken\"");
            fails(FORTH, errF + "bad result-unwrap", "execute", "E-RESULT-001");
            fails(LISP, errL + "(result-unwrap (bad))", "execute", "E-RESULT-001");
            fails(FORTH, okF + "good result-error", "execute", "E-RESULT-002");
            fails(LISP, okL + "(result-error (good))", "execute", "E-RESULT-002");
        }

        @Test
        void okAndErrTakeTheirTypeFromContext() {
            leaves(FORTH, ": check ( int -- result<int,string> ) dup 0 > if ok else drop \"neg\" err then ; 1 check -1 check",
                    "result<int,string> (ok 1)", "result<int,string> (err \"neg\")");
            leaves(LISP, "(define (check [x : int]) : result<int,string> (if (> x 0) (ok x) (err \"neg\"))) (check 1) (check -1)",
                    "result<int,string> (ok 1)", "result<int,string> (err \"neg\")");
            leaves(LISP, "(if false (ok 1) (err \"e\"))", "result<int,string> (err \"e\")");
            fails(FORTH, "1 ok", "verify", "E-VERIFY-024");
            fails(LISP, "(ok 1)", "verify", "E-VERIFY-024");
        }

        @Test
        void ifOkAndMatchResult() {
            leaves(FORTH, "3 ok if-ok 1 + else drop 0 then", "int 4");
            leaves(LISP, "(match-result (ok 3) (ok x (+ x 1)) (err e 0))", "int 4");
            leaves(LISP, "(match (if false (ok 1) (err \"bad\")) (ok x x) (err e (string-length e)))", "int 3");
            fails(FORTH, "3 ok if-ok 1 + else drop \"x\" then", "verify", "E-VERIFY-004");
            fails(LISP, "(match-result (ok 3) (ok x (+ x 1)))", "lower", "E-LISP-101");
        }

        @Test
        void propagationIsAColdErrorEdgeOfADeclaredResultFunction() {
            String f = ": half ( int -- result<int,string> ) dup 2 mod 0 = if 2 / ok else drop \"odd\" err then ; ";
            leaves(FORTH, f + ": quarter ( int -- result<int,string> ) 99 swap half ? half ? nip ok ; 8 quarter 6 quarter",
                    "result<int,string> (ok 2)", "result<int,string> (err \"odd\")");
            String g = "(define (half [x : int]) : result<int,string> (if (= (mod x 2) 0) (ok (/ x 2)) (err \"odd\"))) ";
            leaves(LISP, g + "(define (quarter [x : int]) : result<int,string> (ok (try (half (try (half x)))))) (quarter 8) (quarter 6)",
                    "result<int,string> (ok 2)", "result<int,string> (err \"odd\")");
        }

        @Test
        void propagationIsRejectedAtTopLevelAndOutsideAResultReturn() {
            fails(FORTH, "1 ok ?", "verify", "E-VERIFY-022");
            fails(LISP, "(try (ok 1))", "verify", "E-VERIFY-022");
            // A closure whose declared output is not a result has no return target for ?.
            fails(FORTH, ": g ( int -- int ) [: ( int -- int ) ok ? ;] execute ;", "verify", "E-VERIFY-022");
            // A Lisp lambda is a target only when it declares its result (issue 36), as a define is: else E-LISP-105.
            fails(LISP, "(define (g [x : int]) : result<int,string> (let ((h (lambda ([y : int]) (try (ok y))))) (ok (h x))))", "lower", "E-LISP-105");
            fails(FORTH, ": g ( int -- int ) ok ? ;", "verify", "E-VERIFY-022");
            // Lisp needs the function's own declared result return (D8); an inferred one is not a target.
            fails(LISP, "(define (half [x : int]) : result<int,string> (ok x)) (define (g x) (ok (try (half x))))", "lower", "E-LISP-105");
        }
    }

    // ------------------------------------------------------------------------------------------------ variants

    @Nested
    class Variants {
        static final String V = "variant{none|some(int)|meta(record{name:string})}";

        @Test
        void constructionInBothSpellings() {
            leaves(FORTH, "42 variant<" + V + ",some>", V + " (some 42)");
            leaves(LISP, "(variant " + V + " :some 42)", V + " (some 42)");
            leaves(FORTH, "variant<" + V + ",none>", V + " (none)");
            leaves(LISP, "(variant " + V + " :none)", V + " (none)");
            fails(FORTH, "1 variant<" + V + ",other>", "verify", "E-VERIFY-010");
            fails(LISP, "(variant " + V + " :other 1)", "verify", "E-TYPE-006");
            fails(LISP, "(variant " + V + " :some \"x\")", "verify", "E-TYPE-001");
        }

        @Test
        void variantGetGivesSomeUnitForAPayloadFreeTagAndNoneForAnother() {
            leaves(FORTH, "variant<" + V + ",none> variant-get<none>", "option<unit> (some ())");
            leaves(LISP, "(variant-get (variant " + V + " :none) :none)", "option<unit> (some ())");
            leaves(FORTH, "7 variant<" + V + ",some> variant-get<some>", "option<int> (some 7)");
            leaves(LISP, "(variant-get (variant " + V + " :some 7) :some)", "option<int> (some 7)");
            leaves(FORTH, "7 variant<" + V + ",some> variant-get<none>", "option<unit> (none)");
            leaves(LISP, "(variant-get (variant " + V + " :some 7) :meta)", "option<record{name:string}> (none)");
            fails(FORTH, "7 variant<" + V + ",some> variant-get<nope>", "verify", "E-VERIFY-010");
            fails(LISP, "(variant-get (variant " + V + " :some 7) :nope)", "verify", "E-TYPE-006");
        }

        @Test
        void lispExhaustiveMatchOverTags() {
            String f = "(define (describe [v : " + V + "]) (match v ((none) \"none\") ((some n) (int-to-string n)) "
                    + "((meta m) (unwrap (record-get m \"name\"))))) ";
            leaves(LISP, f + "(describe (variant " + V + " :none)) (describe (variant " + V + " :some 4)) (describe (variant " + V
                    + " :meta { :name \"Ada\" }))", "string \"none\"", "string \"4\"", "string \"Ada\"");
            leaves(LISP, "(match (variant " + V + " :some 4) ((some n) n) (_ 0))", "int 4");
            leaves(LISP, "(match (variant " + V + " :none) ((some n) n) (_ 0))", "int 0");
            // The same program composed from the public operations in Co-Forth.
            leaves(FORTH, "4 variant<" + V + ",some> :> v v variant-get<some> if-some else v variant-get<none> if-some drop 0 else 1 then then", "int 4");
        }

        @Test
        void lispVariantMatchFailureEdges() {
            fails(LISP, "(match (variant " + V + " :none) ((none) 0) ((some n) n))", "verify", "E-TYPE-010");
            fails(LISP, "(match (variant " + V + " :none) ((none) 0) ((other) 1) (_ 2))", "verify", "E-TYPE-006");
            fails(LISP, "(match (variant " + V + " :none) ((none x) 0) (_ 1))", "verify", "E-TYPE-006");
            fails(LISP, "(match (variant " + V + " :none) ((none) 0) ((some n) \"x\") ((meta m) 1))", "verify", "E-TYPE-001");
            fails(LISP, "(define (f v) (match v ((none) 0) (_ 1)))", "verify", "E-TYPE-007");
        }
    }

    // ------------------------------------------------------------------------------------------------ lists

    @Nested
    class Lists {
        @Test
        void literalsInEverySpelling() {
            for (String f : List.of("[1, 2, 3]", "[ 1 2 3 ]", "list{ 1 2 3 }list", "[1 2 3]")) leaves(FORTH, f, "list<int> [1 2 3]");
            for (String l : List.of("(list 1 2 3)", "'(1 2 3)", "(quote (1 2 3))")) leaves(LISP, l, "list<int> [1 2 3]");
            leaves(LISP, "'((1) (2 3))", "list<list<int>> [[1] [2 3]]");
            leaves(LISP, "'(a b)", "list<symbol> ['a 'b]");
            fails(FORTH, "[ 1 \"x\" ]", "verify", "E-VERIFY-002");
            fails(LISP, "(list 1 \"x\")", "verify", "E-TYPE-001");
            fails(LISP, "'(1 \"x\")", "verify", "E-TYPE-001");
        }

        @Test
        void emptyListsNeedTheirElementType() {
            leaves(FORTH, "empty-list<int>", "list<int> []");
            leaves(LISP, "(empty-list int)", "list<int> []");
            fails(FORTH, "[ ]", "verify", "E-VERIFY-014");
            fails(LISP, "(list)", "verify", "E-TYPE-009");
            fails(LISP, "'()", "verify", "E-TYPE-009");
        }

        @Test
        void appendGetLengthUncons() {
            leaves(FORTH, "empty-list<int> 1 list-append 2 list-append", "list<int> [1 2]");
            leaves(LISP, "(list-append (list-append (empty-list int) 1) 2)", "list<int> [1 2]");
            leaves(FORTH, "[ 1 2 ] 1 list-get [ 1 2 ] 5 list-get", "option<int> (some 2)", "option<int> (none)");
            leaves(LISP, "(list-get (list 1 2) 1) (list-get (list 1 2) 5)", "option<int> (some 2)", "option<int> (none)");
            leaves(FORTH, "[ 1 2 ] list-length", "int 2");
            leaves(LISP, "(list-length (list 1 2))", "int 2");
            leaves(FORTH, "[ 1 2 ] list-uncons", "option<record{head:int,tail:list<int>}> (some { head: 1 tail: [2] })");
            leaves(LISP, "(list-uncons (list 1 2))", "option<record{head:int,tail:list<int>}> (some { head: 1 tail: [2] })");
            leaves(LISP, "(list-uncons (empty-list int))", "option<record{head:int,tail:list<int>}> (none)");
            fails(FORTH, "[ 1 2 ] \"x\" list-append", "verify", "E-VERIFY-002");
            fails(LISP, "(list-append (list 1 2) \"x\")", "verify", "E-TYPE-001");
            fails(LISP, "(list-get (list 1 2))", "verify", "E-TYPE-002");
        }

        @Test
        void lispMatchOverListsAndItsCoForthComposition() {
            String sum = "(define (sum [xs : list<int>]) : int (match xs (empty 0) (cons h t (+ h (sum t))))) (sum (list 1 2 3)) (sum (empty-list int))";
            leaves(LISP, sum, "int 6", "int 0");
            leaves(FORTH, ": sum ( list<int> -- int ) list-uncons if-some :> c c \"head\" record-get unwrap c \"tail\" record-get unwrap sum + else 0 then ; "
                    + "[ 1 2 3 ] sum empty-list<int> sum", "int 6", "int 0");
            fails(LISP, "(match (list 1) (empty 0))", "lower", "E-LISP-101");
            fails(LISP, "(match 5 (empty 0) (cons h t h))", "verify", "E-TYPE-001");
        }
    }

    // ------------------------------------------------------------------------------------------------ maps

    @Nested
    class Maps {
        @Test
        void literalsGetSetEntriesInInsertionOrder() {
            leaves(FORTH, "map{ \"b\" 1 \"a\" 2 }map", "map<string,int> map{ \"b\" 1 \"a\" 2 }map");
            leaves(LISP, "(map \"b\" 1 \"a\" 2)", "map<string,int> map{ \"b\" 1 \"a\" 2 }map");
            leaves(FORTH, "map{ \"a\" 1 }map \"a\" map-get map{ \"a\" 1 }map \"z\" map-get", "option<int> (some 1)", "option<int> (none)");
            leaves(LISP, "(map-get (map \"a\" 1) \"a\") (map-get (map \"a\" 1) \"z\")", "option<int> (some 1)", "option<int> (none)");
            String entries = "list<record{key:string,value:int}> [{ key: \"b\" value: 1 } { key: \"a\" value: 9 } { key: \"c\" value: 3 }]";
            leaves(FORTH, "map{ \"b\" 1 \"a\" 2 }map \"c\" 3 map-set \"a\" 9 map-set map-entries", entries);
            leaves(LISP, "(map-entries (map-set (map-set (map \"b\" 1 \"a\" 2) \"c\" 3) \"a\" 9))", entries);
        }

        @Test
        void failureEdges() {
            fails(FORTH, "map{ \"a\" 1 \"b\" \"x\" }map", "verify", "E-VERIFY-002");
            fails(LISP, "(map \"a\" 1 \"b\" \"x\")", "verify", "E-TYPE-001");
            fails(LISP, "(map \"a\" 1 \"b\")", "lower", "E-LISP-101");
            fails(FORTH, "map{ \"a\" 1 }map 1 map-get", "verify", "E-VERIFY-002");
            fails(LISP, "(map-get (map \"a\" 1) 1)", "verify", "E-TYPE-001");
        }
    }

    // ------------------------------------------------------------------------------------------------ records

    @Nested
    class Records {
        @Test
        void literalsSortTheirFields() {
            leaves(FORTH, "{ name: \"Ada\" age: 36 }", "record{age:int,name:string} { age: 36 name: \"Ada\" }");
            leaves(LISP, "{ :name \"Ada\" :age 36 }",
                    "record{age:int,name:string} { age: 36 name: \"Ada\" }");
        }

        @Test
        void recordGetAndSetWithLiteralNames() {
            leaves(FORTH, "{ name: \"Ada\" } \"name\" record-get", "option<string> (some \"Ada\")");
            leaves(LISP, "(record-get { :name \"Ada\" } \"name\")", "option<string> (some \"Ada\")");
            leaves(LISP, "(record-get { :name \"Ada\" } :name)", "option<string> (some \"Ada\")");
            leaves(FORTH, "{ name: \"Ada\" } \"Bob\" \"name\" record-set", "record{name:string} { name: \"Bob\" }");
            leaves(LISP, "(record-set { :name \"Ada\" } \"name\" \"Bob\")", "record{name:string} { name: \"Bob\" }");
        }

        @Test
        void aWrongFieldOrTypeIsAVerifyError() {
            fails(FORTH, "{ name: \"Ada\" } \"nam\" record-get", "verify", "E-VERIFY-011");
            fails(LISP, "(record-get { :name \"Ada\" } \"nam\")", "verify", "E-TYPE-005");
            fails(FORTH, "{ name: \"Ada\" } 3 \"name\" record-set", "verify", "E-VERIFY-002");
            fails(LISP, "(record-set { :name \"Ada\" } \"name\" 3)", "verify", "E-TYPE-001");
            fails(LISP, "(record-set { :name \"Ada\" } \"age\" 3)", "verify", "E-TYPE-005");
            // The field name must be a literal.
            fails(FORTH, "{ a: 1 } \"a\" dup drop record-get", "lower", "E-FORTH-105");
            fails(LISP, "(let ((f \"a\")) (record-get { :a 1 } (string-append f \"\")))", "lower", "E-LISP-101");
        }

        @Test
        void lispTotalRecordArm() {
            leaves(LISP, "(match { :name \"Ada\" :age 36 } (record ((name n) (age a)) (string-append n (int-to-string a))))", "string \"Ada36\"");
            leaves(FORTH, "{ name: \"Ada\" age: 36 } :> r r \"name\" record-get unwrap r \"age\" record-get unwrap int-to-string string-append",
                    "string \"Ada36\"");
            fails(LISP, "(match { :name \"Ada\" } (record ((nom n)) n))", "verify", "E-TYPE-005");
        }
    }

    // ------------------------------------------------------------------------------------------------ match

    @Nested
    class LispMatch {
        @Test
        void boolsAndIntsWithTheRequiredDefault() {
            leaves(LISP, "(match (< 1 2) (true \"yes\") (false \"no\"))", "string \"yes\"");
            leaves(LISP, "(match 3 (1 \"one\") (3 \"three\") (_ \"other\")) (match 9 (1 \"one\") (_ \"other\"))", "string \"three\"", "string \"other\"");
            fails(LISP, "(match 3 (1 \"one\") (3 \"three\"))", "lower", "E-LISP-101");
            fails(LISP, "(match (< 1 2) (true 1))", "lower", "E-LISP-101");
            fails(LISP, "(match 3 (1 \"one\") (_ 2))", "verify", "E-TYPE-001");
        }
    }

    // ------------------------------------------------------------------------------------------------ case

    @Nested
    class CoForthCase {
        @Test
        void caseOfEndofOtherwiseEndcase() {
            String c = " case 1 of \"one\" endof 5 of \"five\" endof otherwise \"other\" endcase";
            leaves(FORTH, "5" + c + " 7" + c, "string \"five\"", "string \"other\"");
            leaves(FORTH, "1 case 1 of 10 endof otherwise 20 endcase", "int 10");
        }

        @Test
        void everyArmLeavesTheSameRow() {
            fails(FORTH, "5 case 1 of \"one\" endof 5 of 5 endof otherwise \"other\" endcase", "verify", "E-VERIFY-004");
            fails(FORTH, "7 case 1 of \"one\" endof endcase", "verify", "E-VERIFY-004");
            fails(FORTH, "\"x\" case 1 of 1 endof otherwise 2 endcase", "verify", "E-VERIFY-002");
        }
    }

    // ------------------------------------------------------------------------------------------------ JSON

    @Nested
    class Json {
        static String parsedF(String jsonText) { return FinchJsonText.forth(jsonText) + " json-parse"; }

        @Test
        void parseIsStrictAndNeverThrows() {
            leaves(FORTH, parsedF("{\"a\": [1, 2]}"), "result<json,string> (ok {\"a\":[1,2]})");
            leaves(LISP, "(json-parse " + FinchJsonText.lisp("{\"a\": [1, 2]}") + ")", "result<json,string> (ok {\"a\":[1,2]})");
            // Duplicate keys, trailing tokens, truncation, nesting depth 5000, a 5000-digit number, non-JSON tokens.
            allRejected(List.of("{\"a\":1,\"a\":2}", "[1] 2", "{", "", "[".repeat(5000) + "]".repeat(5000), "1".repeat(5000), "NaN", "[1,]",
                    "\"\uD800\""));
            // The message says why, as the err payload.
            Outcome dup = run(LISP, "(json-parse " + FinchJsonText.lisp("{\"a\":1,\"a\":2}") + ")");
            assertThat(stackOf(dup).get(0)).startsWith("result<json,string> (err ").contains("Duplicate");
        }

        /** Lone surrogates written as JSON escapes are decoded by the parser, so they are checked after parsing. */
        @Test
        void escapedLoneSurrogatesAreRejected() {
            allRejected(List.of("\"\\uD800\"", "[\"x\\uDC00\"]", "{\"\\uD800\":1}", "\"\\uDC00\\uD800\""));
        }

        private void allRejected(List<String> texts) {
            for (String text : texts) {
                for (Language lang : List.of(FORTH, LISP)) {
                    String program = lang == FORTH ? parsedF(text) + " is-ok" : "(is-ok (json-parse " + FinchJsonText.lisp(text) + "))";
                    leaves(lang, program, "bool false");
                }
            }
        }

        @Test
        void accessors() {
            String doc = "{\"name\": \"Ada\", \"age\": 36, \"ratio\": 1.5, \"ok\": true, \"tags\": [\"x\", \"y\"], \"first name\": \"A\"}";
            String f = parsedF(doc) + " result-unwrap :> j ";
            String l = "(let ((j (result-unwrap (json-parse " + FinchJsonText.lisp(doc) + ")))) ";
            leaves(FORTH, f + "j \"name\" json-get j \"nope\" json-get", "option<json> (some \"Ada\")", "option<json> (none)");
            leaves(LISP, l + "(json-get j \"first name\"))", "option<json> (some \"A\")");
            leaves(FORTH, f + "j \"tags\" json-get unwrap 1 json-index j \"tags\" json-get unwrap 9 json-index", "option<json> (some \"y\")", "option<json> (none)");
            leaves(LISP, l + "(json-index (unwrap (json-get j \"tags\")) 0))", "option<json> (some \"x\")");
            leaves(FORTH, f + "j json-keys", "list<string> [\"name\" \"age\" \"ratio\" \"ok\" \"tags\" \"first name\"]");
            leaves(LISP, l + "(json-keys (unwrap (json-get j \"tags\"))))", "list<string> []");
            leaves(FORTH, f + "j \"name\" json-get unwrap json-as-string j \"age\" json-get unwrap json-as-int", "option<string> (some \"Ada\")", "option<int> (some 36)");
            leaves(LISP, l + "(json-as-float (unwrap (json-get j \"ratio\"))))", "option<float> (some 1.5)");
            leaves(LISP, l + "(json-as-bool (unwrap (json-get j \"ok\"))))", "option<bool> (some true)");
            leaves(LISP, l + "(json-as-int (unwrap (json-get j \"name\"))))", "option<int> (none)");
            leaves(FORTH, f + "j json-as-map unwrap \"first name\" map-get", "option<json> (some \"A\")");
            leaves(LISP, l + "(json-as-map (unwrap (json-get j \"age\"))))", "option<map<string,json>> (none)");
            leaves(FORTH, f + "j \"tags\" json-get unwrap json-stringify", "string \"[\\\"x\\\",\\\"y\\\"]\"");
            leaves(LISP, l + "(json-stringify (unwrap (json-get j \"tags\"))))", "string \"[\\\"x\\\",\\\"y\\\"]\"");
            fails(FORTH, f + "j 1 json-get", "verify", "E-VERIFY-002");
            fails(LISP, l + "(json-get j 1))", "verify", "E-TYPE-001");
        }

        @Test
        void coForthPastedJsonObjectLiteral() {
            leaves(FORTH, "{\"first name\": \"Ada\", \"x\": [1, 2]}", "json {\"first name\":\"Ada\",\"x\":[1,2]}");
            leaves(FORTH, "{\"first name\": \"Ada\"} \"first name\" json-get", "option<json> (some \"Ada\")");
            fails(FORTH, "{\"a\": 1, \"a\": 2}", "parse", "E-FORTH-006");
            // JSON stays distinct from records: a record operation on it is a verify error.
            fails(FORTH, "{\"a\": 1} \"a\" record-get", "verify", "E-VERIFY-002");
        }
    }

    // ------------------------------------------------------------------------------------------------ symbols, tokens, closures

    @Nested
    class SymbolsTokensClosures {
        @Test
        void symbolsAreNotStrings() {
            leaves(FORTH, "'name", "symbol 'name");
            leaves(LISP, "'name (quote other)", "symbol 'name", "symbol 'other");
            fails(FORTH, "'name string-length", "verify", "E-VERIFY-002");
            fails(LISP, "(string-length 'name)", "verify", "E-TYPE-001");
        }

        @Test
        void executionTokensAndFunctionValues() {
            leaves(FORTH, ": sq ( int -- int ) dup * ; 3 ['] sq execute", "int 9");
            leaves(LISP, "(define (sq x) (* x x)) (define (twice [f : (int -> int)] [x : int]) (f (f x))) (twice sq 3)", "int 81");
            fails(FORTH, ": sq ( int -- int ) dup * ; \"x\" ['] sq execute", "verify", "E-VERIFY-002");
            fails(FORTH, "3 ['] no-such-word execute", "verify", "E-VERIFY-003");
            fails(LISP, "(define (sq x) (* x x)) (sq \"x\")", "verify", "E-TYPE-001");
        }

        @Test
        void closuresCarryTypedSignaturesWithEffects() {
            leaves(FORTH, "3 [: ( int -- int ) 1 + ;] execute", "int 4");
            leaves(LISP, "(define (adder k) (lambda (x) (+ x k))) ((adder 2) 40)", "int 42");
            // Lisp infers a closure's full type, effects included; Co-Forth states it (session.emit never has to be declared).
            assertThat(run(FORTH, "[: ( string -- ) say ;]").stack().get(0).type()).isEqualTo("string ->");
            assertThat(run(LISP, "(lambda ([s : string]) (say s))").stack().get(0).type()).isEqualTo("string -> unit ! {session.emit}");
            assertThat(run(LISP, "(lambda ([p : path]) (file-read p))").stack().get(0).type()).isEqualTo("path -> bytes ! {fs.read(${workspace}/**)}");
            // A closure that reads files must say so in its declared type; a declaration cannot hide the effect.
            fails(FORTH, "[: ( -- bytes ) \"a.txt\" path file-read ;]", "verify", "E-VERIFY-025");
            leaves(FORTH, "[: ( -- bytes ! {fs.read(${workspace}/**)} ) \"a.txt\" path file-read ;] drop");
            fails(FORTH, "[: ( int -- int ) \"x\" ;]", "verify", "E-VERIFY-006");
            fails(LISP, "(let ((f (lambda (x) (+ x 1)))) (f \"x\"))", "verify", "E-TYPE-001");
        }
    }

    // ------------------------------------------------------------------------------------------------ display and JSON

    @Nested
    class Display {
        @Test
        void d4DisplayStringsAreTheSameInBothSpellings() {
            String forth = "42 1.5 true \"q\\\"t\" unit 'name 1 some 2 some some [ 1 2 ] { name: \"Ada\" } map{ 1 \"x\" }map";
            String lisp = "42 1.5 true \"q\\\"t\" 'name (some 1) (some (some 2)) (list 1 2) { :name \"Ada\" } (map 1 \"x\")";
            List<String> f = stackOf(run(FORTH, forth));
            List<String> l = stackOf(run(LISP, lisp));
            assertThat(f).containsExactly("int 42", "float 1.5", "bool true", "string \"q\\\"t\"", "unit ()", "symbol 'name", "option<int> (some 1)",
                    "option<option<int>> (some (some 2))", "list<int> [1 2]", "record{name:string} { name: \"Ada\" }", "map<int,string> map{ 1 \"x\" }map");
            assertThat(l).containsExactly("int 42", "float 1.5", "bool true", "string \"q\\\"t\"", "symbol 'name", "option<int> (some 1)",
                    "option<option<int>> (some (some 2))", "list<int> [1 2]", "record{name:string} { name: \"Ada\" }", "map<int,string> map{ 1 \"x\" }map");
        }

        @Test
        void outcomeJsonCarriesTypeAndDisplay() {
            String f = FinchJson.write(run(FORTH, "\"x\" err :> e 1 some"));
            String l = FinchJson.write(run(LISP, "(some 1)"));
            for (String json : List.of(f, l)) {
                assertThat(json).contains("\"status\":\"completed\"").contains("\"stack\":[{\"type\":\"option<int>\",\"display\":\"(some 1)\"}]");
            }
            String failed = FinchJson.write(run(LISP, "(unwrap (list-get (list 1) 3))"));
            assertThat(failed).contains("\"status\":\"failed\"").contains("\"code\":\"E-OPTION-001\"").contains("\"phase\":\"execute\"");
        }
    }

    /** Program spellings of a JSON text as a string literal in each language. */
    static final class FinchJsonText {
        private FinchJsonText() { }

        static String forth(String text) { return dev.finch.ir.print.CoForthPrinter.quote(text); }

        static String lisp(String text) { return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"'; }
    }
}
