package dev.finch.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.Overload;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.word.Impl;
import dev.finch.vm.word.Library;
import dev.finch.vm.declare.Word;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The declarations are checked against their implementations when a library is built, so a mistake fails here —
 * never in a user's run: each refused declaration below is one way the old name-joined tables could go wrong.
 */
class LibraryTest {

    @Test void theCoreLibraryBuildsAndEveryOverloadHasAnImplementationOfItsOwnId() {
        Library core = Library.core();
        Set<String> ids = new HashSet<>();
        for (WordSpec w : core.vocabulary().words()) {
            assertThat(w.doc()).as("%s has documentation", w.name()).isNotBlank();
            for (Overload o : w.overloads()) {
                assertThat(ids.add(o.id())).as("overload id %s is unique", o.id()).isTrue();
                Impl impl = core.impl(o.id());
                assertThat(impl.overload()).isEqualTo(o);
                assertThat(impl.word().name()).isEqualTo(w.name());
                assertThat(impl.method() != null || impl.special() != null).as("%s has an implementation", o.id()).isTrue();
                // Finch's own handles are made on first call; each must be makeable, with the shape invoke calls.
                if (impl.method() != null) {
                    assertThat(impl.boxed().type()).as("%s's boxed handle", o.id()).isEqualTo(java.lang.invoke.MethodType.methodType(Object.class,
                            dev.finch.vm.runtime.Ctx.class, int.class, dev.finch.ir.type.Type.Fn.class, dev.finch.ir.diag.Origin.class, Object[].class));
                }
            }
        }
        assertThat(core.vocabulary().words()).hasSizeGreaterThan(100);
        assertThat(core.vocabulary().word("+").orElseThrow().overloads()).extracting(Overload::id).containsExactly("add-int", "add-float");
    }

    @Test void aHostsWordsExtendTheCoreAndAreMarkedAsTheHosts() {
        Library lib = Library.core().with(List.of(Good.class));
        WordSpec w = lib.vocabulary().word("greet").orElseThrow();
        assertThat(w.origin()).isEqualTo(WordSpec.Provenance.HOST);
        assertThat(w.category()).isEqualTo(WordSpec.Category.HOST);
        assertThat(lib.impl("greet").host()).isTrue();
        assertThat(lib.vocabulary().word("dup")).isPresent();
        assertThat(Library.core().vocabulary().word("greet")).as("the core is unchanged").isEmpty();
        assertThat(lib.vocabulary().fingerprint()).isNotEqualTo(Library.core().vocabulary().fingerprint());
    }

    @Test void aSignatureThatDisagreesWithTheMethodIsRefused() {
        refused(WrongParameter.class, "input 1 of `int -> int` is a int, held as long, but the parameter is String");
        refused(WrongReturn.class, "returns long but `string -> string` answers a string");
        refused(TooManyParameters.class, "has a parameter `String` that the signature `string -> string` does not explain");
        refused(Malformed.class, "malformed signature");
    }

    @Test void namesAndIdsAreUniqueAndEveryOverloadBelongsToAWord() {
        refused(Duplicate.class, "the word `twice` is declared twice");
        refused(TakesCore.class, "is declared twice");
        refused(Orphan.class, "which no @Word declares");
        refused(TwoOverloadsOneId.class, "each needs its own id");
    }

    @Test void aHostsWordsStayOutsideTheVm() {
        refused(TakesContext.class, "a host's word cannot take the run context");
        refused(TwoCapabilities.class, "at most one capability");
        refused(UnknownCapability.class, "is not a capability Finch knows");
        refused(NotPublic.class, "not public static");
    }

    @Test void templatesNeedABoundAndAnArgument() {
        refused(TemplateWithoutBound.class, "has no bound");
        refused(TemplateBeyondArguments.class, "names an argument the word does not take");
    }

    private static void refused(Class<?> words, String message) {
        assertThatThrownBy(() -> Library.core().with(List.of(words))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    // ---- declarations --------------------------------------------------------------------------------------

    public static final class Good {
        @Word(name = "greet", doc = "A greeting.")
        @dev.finch.vm.declare.Overload(sig = "string -> string")
        public static String greet(String name) { return "hi " + name; }
    }

    public static final class WrongParameter {
        @Word(name = "w1", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "int -> int")
        public static long w1(String s) { return 0; }
    }

    public static final class WrongReturn {
        @Word(name = "w2", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "string -> string")
        public static long w2(String s) { return 0; }
    }

    public static final class TooManyParameters {
        @Word(name = "w3", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "string -> string")
        public static String w3(String s, String t) { return s; }
    }

    public static final class Malformed {
        @Word(name = "w4", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "string -> list<")
        public static Object w4(String s) { return s; }
    }

    public static final class Duplicate {
        @Word(name = "twice", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "int -> int")
        public static long a(long x) { return x; }

        @Word(name = "twice", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "int -> int", id = "twice-2")
        public static long b(long x) { return x; }
    }

    public static final class TakesCore {
        @Word(name = "dup", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "int -> int", id = "my-dup")
        public static long dup(long x) { return x; }
    }

    public static final class Orphan {
        @dev.finch.vm.declare.Overload(word = "nobody", sig = "int -> int")
        public static long orphan(long x) { return x; }
    }

    public static final class TwoOverloadsOneId {
        @Word(name = "both", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "int -> int")
        public static long a(long x) { return x; }

        @dev.finch.vm.declare.Overload(word = "both", sig = "float -> float", order = 1)
        public static double b(double x) { return x; }
    }

    public static final class TakesContext {
        @Word(name = "ctx-word", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "int -> int")
        public static long w(Ctx ctx, long x) { return x; }
    }

    public static final class TwoCapabilities {
        @Word(name = "two-caps", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "int -> int ! {host.call(a),host.call(b)}")
        public static long w(long x) { return x; }
    }

    public static final class UnknownCapability {
        @Word(name = "odd-cap", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "int -> int ! {net.teleport(x)}")
        public static long w(long x) { return x; }
    }

    public static final class NotPublic {
        @Word(name = "hidden", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "int -> int")
        static long w(long x) { return x; }
    }

    public static final class TemplateWithoutBound {
        @Word(name = "t1", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "string -> int ! {host.call(t1)}", requires = "fs.read($0)")
        public static long w(String s) { return 0; }
    }

    public static final class TemplateBeyondArguments {
        @Word(name = "t2", doc = "x")
        @dev.finch.vm.declare.Overload(sig = "string -> int ! {host.call(*)}", requires = "host.call($3)")
        public static long w(String s, Origin o) { return 0; }
    }
}
