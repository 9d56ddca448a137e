package dev.finch.verifier;

import static dev.finch.verifier.Check.fails;
import static dev.finch.verifier.Check.ok;
import static dev.finch.verifier.Check.word;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EffectsTest {
    static final String READ = "fs.read(${workspace}/**)";
    static final Capability READ_CAP = Capability.parse(READ).orElseThrow();
    static final Environment ENV = new Environment(Ir.VOCABULARY, Map.of(
            "mkpath", Ir.sig("string -> path"),
            "read-file", Ir.sig("path -> bytes ! {" + READ + "}"),
            "read-notes", Ir.sig("-> bytes ! {fs.read(${workspace}/notes.txt)}")), Map.of(), List.of());

    @Test void aPureDeclarationCannotHideACapabilityBearingCall() {
        Diagnostic d = fails(": load ( string -> bytes ) mkpath read-file ;", VerifyCode.UNDECLARED_EFFECT, ENV);
        assertThat(d.found()).isEqualTo(READ);
        assertThat(d.expected()).contains("pure");
        assertThat(d.origin()).isEqualTo(Ir.at(8));
    }

    @Test void aDeclaredCapabilityCoversTheCall() {
        Checked.CheckedModule m = ok(": load ( string -> bytes ! {" + READ + "} ) mkpath read-file ; \"a.txt\" load", ENV);
        Checked.CheckedWord load = word(m, "load");
        assertThat(load.signature().effects()).containsExactly(READ_CAP);
        assertThat(load.suspends()).isTrue();
        Checked.CallNode read = (Checked.CallNode) load.body().nodes().get(1);
        assertThat(read.suspends()).isTrue();
        Checked.CallNode mk = (Checked.CallNode) load.body().nodes().get(0);
        assertThat(mk.suspends()).isFalse();
        assertThat(m.main().suspends()).isTrue();
        assertThat(m.inferredCapabilities()).containsExactly(READ_CAP);
        assertThat(m.main().signature().effects()).containsExactly(READ_CAP);
    }

    @Test void aScopedDeclarationCoversNarrowerRequirementsOnly() {
        ok(": notes ( -> bytes ! {" + READ + "} ) read-notes ;", ENV);
        fails(": load ( string -> bytes ! {fs.read(${workspace}/src/**)} ) mkpath read-file ;", VerifyCode.UNDECLARED_EFFECT, ENV);
        fails(": load ( string -> bytes ! {fs.write(${workspace}/**)} ) mkpath read-file ;", VerifyCode.UNDECLARED_EFFECT, ENV);
    }

    @Test void effectsAreInferredTransitively() {
        Checked.CheckedModule m = ok(": load mkpath read-file ; : twice dup load swap load ; : top twice drop drop ; \"x\" top", ENV);
        assertThat(word(m, "load").signature().toString()).isEqualTo("string -> bytes ! {" + READ + "}");
        assertThat(word(m, "twice").signature().effects()).containsExactly(READ_CAP);
        assertThat(word(m, "top").signature().effects()).containsExactly(READ_CAP);
        assertThat(word(m, "top").suspends()).isTrue();
        assertThat(m.inferredCapabilities()).containsExactly(READ_CAP);
        fails(": load mkpath read-file ; : pure-top ( string -> ) load drop ;", VerifyCode.UNDECLARED_EFFECT, ENV);
    }

    @Test void sayIsInferredButNeverHasToBeDeclared() {
        Checked.CheckedModule m = ok(": hello ( -> ) \"hi\" say ; hello");
        assertThat(word(m, "hello").signature().effects()).containsExactly(Capability.SESSION_EMIT);
        assertThat(word(m, "hello").suspends()).isFalse();
        assertThat(m.inferredCapabilities()).containsExactly(Capability.SESSION_EMIT);
        assertThat(ok("1 2 +").inferredCapabilities()).isEmpty();
    }

    @Test void recursionReachesAFixpoint() {
        Checked.CheckedModule m = ok(": a ( int -> ) dup 0 > if 1 - b else drop then \"x\" say ; : b ( int -> ) a ; 3 a");
        assertThat(word(m, "a").signature().effects()).containsExactly(Capability.SESSION_EMIT);
        assertThat(word(m, "b").signature().effects()).containsExactly(Capability.SESSION_EMIT);
        Checked.CallNode call = (Checked.CallNode) word(m, "b").body().nodes().get(0);
        assertThat(call.instantiated().effects()).containsExactly(Capability.SESSION_EMIT);
        Diagnostic d = fails(": a ( int -> ) dup 0 > if 1 - b else drop then ; : b ( int -> ! {" + READ + "} ) \"f\" mkpath read-file drop a ; 1 a",
                VerifyCode.UNDECLARED_EFFECT, ENV);
        assertThat(d.message()).contains("word `a`");
    }

    @Test void executeCarriesTheFunctionsEffects() {
        Checked.CheckedModule m = ok(": load ( string -> bytes ! {" + READ + "} ) mkpath read-file ; \"a\" ['] load execute", ENV);
        Checked.CallNode ex = (Checked.CallNode) m.main().body().nodes().get(2);
        assertThat(ex.suspends()).isTrue();
        assertThat(m.inferredCapabilities()).contains(READ_CAP);
        fails(": load ( string -> bytes ! {" + READ + "} ) mkpath read-file ; : run ( string -> bytes ) ['] load execute ;",
                VerifyCode.UNDECLARED_EFFECT, ENV);
    }

    @Test void closuresDeclareTheirEffects() {
        fails("[: ( string -> bytes ) mkpath read-file ;] drop", VerifyCode.UNDECLARED_EFFECT, ENV);
        Checked.CheckedModule m = ok("\"a\" [: ( string -> bytes ! {" + READ + "} ) mkpath read-file ;] execute", ENV);
        Checked.ClosureNode c = (Checked.ClosureNode) m.main().body().nodes().get(1);
        assertThat(c.body().suspends()).isTrue();
        assertThat(c.body().signature().effects()).containsExactly(READ_CAP);
        assertThat(m.main().signature().effects()).containsExactly(READ_CAP);
        Checked.CheckedModule made = ok(": maker ( -> (string -> bytes ! {" + READ + "}) ) [: ( string -> bytes ! {" + READ + "} ) mkpath read-file ;] ;", ENV);
        assertThat(word(made, "maker").signature().effects()).isEmpty();
        assertThat(word(made, "maker").suspends()).isFalse();
    }

    @Test void yieldsMustBeDeclaredWhenTheSignatureIs() {
        Diagnostic d = fails(": gen ( -> ) 1 yield ;", VerifyCode.UNDECLARED_YIELDS);
        assertThat(d.message()).contains("yields<int,unit>");
        Checked.CheckedModule m = ok(": gen ( -> yields<int,unit> ) 1 yield 2 yield ; gen");
        assertThat(word(m, "gen").suspends()).isTrue();
        assertThat(m.main().suspends()).isTrue();
        assertThat(m.main().signature().toString()).isEqualTo("-> yields<int,unit>");
        fails(": gen ( -> yields<int,unit> ) \"s\" yield ;", VerifyCode.TYPE_MISMATCH);
        fails(": gen ( -> yields<int,unit> ) 1 yield ; : user ( -> ) gen ;", VerifyCode.UNDECLARED_YIELDS);
        fails("[: ( -> ) 1 yield ;] drop", VerifyCode.UNDECLARED_YIELDS);
        fails("1 yield \"s\" yield", VerifyCode.TYPE_MISMATCH);
    }

    @Test void yieldsAreInferredWithoutASignature() {
        Checked.CheckedModule m = ok(": gen 1 yield ; : user gen gen ; user");
        assertThat(word(m, "gen").signature().toString()).isEqualTo("-> yields<int,unit>");
        assertThat(word(m, "user").signature().toString()).isEqualTo("-> yields<int,unit>");
        Checked.CheckedModule plain = ok("unit yield");
        assertThat(plain.main().suspends()).isTrue();
        Checked.CheckedModule viaClosure = ok("[: ( -> yields<string,unit> ) \"x\" yield ;] execute");
        assertThat(viaClosure.main().signature().toString()).isEqualTo("-> yields<string,unit>");
        assertThat(viaClosure.main().suspends()).isTrue();
    }
}
