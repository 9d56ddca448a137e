package dev.finch.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Phase;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A corpus of ill-typed programs: each must fail in phase verify with exactly the expected code, never executing. */
class IllTypedCorpusTest {
    static final String V = "variant{none|some(int)}";
    static final Environment ENV = new Environment(Ir.VOCABULARY, Map.of(
            "mkpath", Ir.sig("string -> path"),
            "read-file", Ir.sig("path -> bytes ! {fs.read(${workspace}/**)}"),
            "run-tool", Ir.sig("string -> string ! {process.run(tool)}")), Map.of("limit", Ir.t("int")), List.of(Ir.t("int"), Ir.t("string")));

    static Stream<Arguments> corpus() {
        return Stream.of(
                // underflow
                bad("drop drop +", VerifyCode.STACK_UNDERFLOW),
                bad("drop drop drop", VerifyCode.STACK_UNDERFLOW),
                bad(": f ( int -> int ) + ;", VerifyCode.STACK_UNDERFLOW),
                bad("1 2 3 rot rot rot drop drop drop drop drop drop", VerifyCode.STACK_UNDERFLOW),
                bad("[: ( -> ) drop ;] drop", VerifyCode.STACK_UNDERFLOW),
                // mismatch
                bad("drop \"no\" 1 +", VerifyCode.TYPE_MISMATCH),
                bad("1 +", VerifyCode.TYPE_MISMATCH),
                bad("1 2 and", VerifyCode.TYPE_MISMATCH),
                bad("\"a\" 1 string-append", VerifyCode.TYPE_MISMATCH),
                bad("1 int-to-float 2 +", VerifyCode.TYPE_MISMATCH),
                bad("1 some unwrap \"x\" string-append", VerifyCode.TYPE_MISMATCH),
                bad("1 say", VerifyCode.TYPE_MISMATCH),
                bad("limit \"x\" string-append", VerifyCode.TYPE_MISMATCH),
                bad("1 mkpath", VerifyCode.TYPE_MISMATCH),
                bad("empty-list<int> 1.5 list-append", VerifyCode.TYPE_MISMATCH),
                bad("map{ 1 \"a\" }map \"k\" map-get", VerifyCode.TYPE_MISMATCH),
                bad("1 ok 2.5 ok =", VerifyCode.TYPE_MISMATCH),
                bad("1 :> x true :> x", VerifyCode.TYPE_MISMATCH),
                bad("\"s\" constant<int> n", VerifyCode.TYPE_MISMATCH),
                // unknown words
                bad("1 dupp", VerifyCode.UNKNOWN_WORD),
                bad("1 2 plus", VerifyCode.UNKNOWN_WORD),
                bad(": f undefined-thing ; f", VerifyCode.UNKNOWN_WORD),
                // merges
                bad("true if 1 else then", VerifyCode.BRANCH_MISMATCH),
                bad("true if 1 else 1.5 then", VerifyCode.BRANCH_MISMATCH),
                bad("1 some if-some else \"none\" then", VerifyCode.BRANCH_MISMATCH),
                bad("\"1\" json-parse if-ok 1 else then", VerifyCode.BRANCH_MISMATCH),
                bad("1 case 1 of 1 endof 2 of endof otherwise 0 endcase", VerifyCode.BRANCH_MISMATCH),
                bad("1 case 1 of \"x\" endof endcase", VerifyCode.BRANCH_MISMATCH),
                // loops
                bad("begin 1 while repeat", VerifyCode.LOOP_ROW),
                bad("0 begin dup 5 < while \"x\" repeat", VerifyCode.LOOP_ROW),
                bad("0 begin 1 + until", VerifyCode.LOOP_ROW),
                // signatures and recursion
                bad(": f ( int -> int ) drop ;", VerifyCode.SIGNATURE_MISMATCH),
                bad(": f ( -> string ) 1 ;", VerifyCode.SIGNATURE_MISMATCH),
                bad("[: ( int -> ) ;] drop", VerifyCode.SIGNATURE_MISMATCH),
                bad(": r r ;", VerifyCode.RECURSION_NEEDS_SIGNATURE),
                bad(": a b ; : b c ; : c a ;", VerifyCode.RECURSION_NEEDS_SIGNATURE),
                bad(": w 1 ; : w 2 ;", VerifyCode.DUPLICATE_WORD),
                // special words
                bad("1 variant<" + V + ",som>", VerifyCode.UNKNOWN_TAG),
                bad("1 variant<" + V + ",some> variant-get<nothing>", VerifyCode.UNKNOWN_TAG),
                bad("1 variant<int,some>", VerifyCode.BAD_IMMEDIATE),
                bad("empty-list<int,int>", VerifyCode.BAD_IMMEDIATE),
                bad("{ a: 1 } record-get:b", VerifyCode.UNKNOWN_FIELD),
                bad("{ a: 1 } \"s\" record-set:a", VerifyCode.TYPE_MISMATCH),
                bad("3 execute", VerifyCode.NOT_A_FUNCTION),
                bad(": f ( -> ) 1 execute ;", VerifyCode.NOT_A_FUNCTION),
                bad(": g record-get:x ;", VerifyCode.NEEDS_KNOWN_TYPE),
                bad("['] variant", VerifyCode.BAD_QUOTE),
                bad("['] limit", VerifyCode.BAD_QUOTE),
                // literals
                bad("[ ]", VerifyCode.EMPTY_LIST_LITERAL),
                bad("[ 1 true ]", VerifyCode.TYPE_MISMATCH),
                bad("[ + ]", VerifyCode.LITERAL_UNDERFLOW),
                bad("map{ 1 }map", VerifyCode.ODD_MAP_LITERAL),
                bad("{ x: 1 2 }", VerifyCode.RECORD_FIELD_ARITY),
                bad("{ x: 1 x: 2 }", VerifyCode.DUPLICATE_FIELD),
                // locals, closures, propagation, constants
                bad("$nope", VerifyCode.LOCAL_UNASSIGNED),
                bad("1 :> x [: ( -> ) 2 :> x ;] drop", VerifyCode.CAPTURED_LOCAL_STORE),
                bad("\"1\" json-parse ?", VerifyCode.PROPAGATE_TARGET),
                bad(": f ( string -> json ) json-parse ? ;", VerifyCode.PROPAGATE_TARGET),
                bad(": f ( -> ) 1 constant one ;", VerifyCode.CONSTANT_PLACEMENT),
                bad(": f ( -> int ) one ; f 1 constant one", VerifyCode.CONSTANT_NOT_YET_DEFINED),
                bad(": f ( -> int ) one ; 1 constant one f \"s\" constant one", VerifyCode.CONSTANT_NOT_YET_DEFINED),
                bad("1 drop empty-list<a>", VerifyCode.AMBIGUOUS_TYPE),
                bad("\"x\" err", VerifyCode.AMBIGUOUS_TYPE),
                // effects and yields
                bad(": load ( string -> bytes ) mkpath read-file ;", VerifyCode.UNDECLARED_EFFECT),
                bad(": odd ( -> ! {frobnicate.all} ) ;", VerifyCode.MALFORMED_CAPABILITY),
                bad(": odd ( -> ! {fs.read(${nope}/**)} ) ;", VerifyCode.MALFORMED_CAPABILITY),
                bad(": tool ( string -> string ! {fs.read(${workspace}/**)} ) run-tool ;", VerifyCode.UNDECLARED_EFFECT),
                bad(": inner mkpath read-file ; : outer ( string -> bytes ) inner ;", VerifyCode.UNDECLARED_EFFECT),
                bad("[: ( string -> string ) run-tool ;] drop", VerifyCode.UNDECLARED_EFFECT),
                bad(": g ( -> ) unit yield ;", VerifyCode.UNDECLARED_YIELDS),
                bad(": g 1 yield ; : h ( -> ) g ;", VerifyCode.UNDECLARED_YIELDS),
                bad("1 case 2 of endof 2 of endof endcase", VerifyCode.DUPLICATE_CASE_VALUE),
                // CPU tasks: only a pure closure is deferred; agent handles are not CPU tasks
                bad("[: ( -> bytes ! {fs.read(${workspace}/**)} ) \"a\" mkpath read-file ;] defer-cpu", VerifyCode.IMPURE_TASK),
                bad("[: ( -> int ! {session.emit} ) \"a\" say 1 ;] defer-cpu", VerifyCode.IMPURE_TASK),
                bad("[: ( -> int yields<int,unit> ) 1 yield 2 ;] defer-cpu", VerifyCode.IMPURE_TASK),
                bad("[: ( int -> int ) 1 + ;] defer-cpu", VerifyCode.TYPE_MISMATCH),
                bad(": j ( task<agent-result> -> agent-result ) task-join ;", VerifyCode.AGENT_TASK),
                bad(": j ( task<agent-result> -> agent-result ) step-join ;", VerifyCode.AGENT_TASK));
    }

    private static Arguments bad(String src, VerifyCode code) { return Arguments.of(src, code); }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("corpus")
    void failsInVerifyWithTheExpectedCode(String src, VerifyCode code) {
        Verification v = Verifier.verify(Ir.module(src), ENV);
        assertThat(v.ok()).isFalse();
        assertThat(v.module()).isEmpty();
        Diagnostic first = v.diagnostics().get(0);
        assertThat(first.phase()).isEqualTo(Phase.VERIFY);
        assertThat(first.code()).as("%s -> %s", src, first).isEqualTo(code.code());
        assertThat(first.origin().source()).isEqualTo("test");
    }

    @Test void theCorpusIsLargeAndCoversMostCodes() {
        List<Arguments> all = corpus().toList();
        assertThat(all).hasSizeGreaterThanOrEqualTo(40);
        Set<VerifyCode> used = EnumSet.noneOf(VerifyCode.class);
        for (Arguments a : all) used.add((VerifyCode) a.get()[1]);
        Set<VerifyCode> notProgramErrors = EnumSet.of(VerifyCode.VERIFIER_LIMIT, VerifyCode.MALFORMED_IR);
        for (VerifyCode c : VerifyCode.values()) if (!notProgramErrors.contains(c)) assertThat(used).as("corpus covers %s", c).contains(c);
    }

    @Test void codesAreUniqueAndWellFormed() {
        Set<String> seen = new java.util.HashSet<>();
        for (VerifyCode c : VerifyCode.values()) {
            assertThat(c.code()).matches("E-VERIFY-\\d{3}");
            assertThat(seen.add(c.code())).isTrue();
            assertThat(c.phase()).isEqualTo(Phase.VERIFY);
            assertThat(c.meaning()).isNotBlank();
        }
    }
}
