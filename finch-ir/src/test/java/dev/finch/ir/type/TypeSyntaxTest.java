package dev.finch.ir.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.cap.Capability;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed spellings are rejected with a message and the offset of the problem; known spellings parse exactly. */
class TypeSyntaxTest {

    @ParameterizedTest(name = "''{0}'' fails at {1}")
    @CsvSource(delimiter = ';', quoteCharacter = '`', textBlock = """
            ``                          ; 0  ; expected a type
            option<int                  ; 10 ; expected '>'
            record{a:int,a:bool}        ; 19 ; duplicate record field 'a'
            variant{a|a}                ; 11 ; duplicate variant tag 'a'
            int -> ! {BAD}              ; 10 ; malformed capability 'BAD'
            int int                     ; 7  ; expected '->'
            yields<int,unit>            ; 6  ; needs a signature
            int -> int ! {fs.read(a}    ; 14 ; unbalanced capability list
            map<int>                    ; 7  ; expected ','
            option<>                    ; 7  ; expected a type
            path<>                      ; 5  ; expected a root name
            -> int yields<int>          ; 17 ; expected ','
            record{:int}                ; 7  ; expected a name
            int -> int ! fs.read        ; 13 ; expected '{'
            """)
    void rejectsWithOffset(String text, int offset, String message) {
        assertThatThrownBy(() -> TypeSyntax.parse(text))
                .isInstanceOfSatisfying(TypeSyntax.TypeSyntaxException.class, e -> assertThat(e.offset()).isEqualTo(offset))
                .hasMessageContaining(message);
        assertThat(TypeSyntax.tryParse(text)).isEmpty();
    }

    @Test
    void aSignatureNeedsAnArrow() {
        assertThatThrownBy(() -> TypeSyntax.parseSignature("int")).hasMessageContaining("expected a signature");
        assertThat(TypeSyntax.parseSignature("->")).isEqualTo(Type.Fn.of(List.of(), List.of()));
    }

    @Test
    void parsesTheContractSpellings() {
        assertThat(TypeSyntax.parse("variant{none|some(int)|metadata(record{name:string})}")).isEqualTo(new Type.VariantT(
                new java.util.LinkedHashMap<>(Map.of("none", Optional.<Type>empty())) {{
                    put("some", Optional.of(Type.Prim.INT));
                    put("metadata", Optional.of(new Type.RecordT(Map.of("name", Type.Prim.STRING))));
                }}));
        Type.Fn read = TypeSyntax.parseSignature("path -> bytes ! {fs.read(${workspace}/**)}");
        assertThat(read.ins()).containsExactly(Type.PathT.WORKSPACE_PATH);
        assertThat(read.outs()).containsExactly(Type.Prim.BYTES);
        assertThat(read.effects()).containsExactly(Capability.of("fs.read", "${workspace}/**"));
        Type.Fn gen = TypeSyntax.parseSignature("int -> yields<int,unit>");
        assertThat(gen.outs()).isEmpty();
        assertThat(gen.yields()).contains(new Type.Yields(Type.Prim.INT, Type.Prim.UNIT));
    }

    @Test
    void recordFieldsAreSortedAndVariantTagsKeepTheirOrder() {
        assertThat(TypeSyntax.parse("record{b:int,a:bool}").toString()).isEqualTo("record{a:bool,b:int}");
        assertThat(TypeSyntax.parse("variant{z|a}").toString()).isEqualTo("variant{z|a}");
        assertThat(TypeSyntax.parse("variant{z|a}")).isNotEqualTo(TypeSyntax.parse("variant{a|z}"));
    }

    @Test
    void variablesAreSingleLettersWithDigitsAndOtherNamesAreOpaque() {
        assertThat(TypeSyntax.parse("a")).isEqualTo(new Type.Var("a"));
        assertThat(TypeSyntax.parse("b2")).isEqualTo(new Type.Var("b2"));
        assertThat(TypeSyntax.parse("ab")).isEqualTo(new Type.Named("ab"));
        assertThat(TypeSyntax.parse("agent-result")).isEqualTo(new Type.Named("agent-result"));
        // a recursive type: its references inside stand for the whole type, so unfolding it replaces them
        Type tree = TypeSyntax.parse("rec<Tree,variant{Leaf|Node(record{left:Tree,right:Tree})}>");
        assertThat(tree).isEqualTo(new Type.Named("Tree", java.util.Optional.of(TypeSyntax.parse("variant{Leaf|Node(record{left:Tree,right:Tree})}"))));
        assertThat(tree.toString()).isEqualTo("rec<Tree,variant{Leaf|Node(record{left:Tree,right:Tree})}>");
        assertThat(((Type.Named) tree).unfold().toString()).isEqualTo("variant{Leaf|Node(record{left:" + tree + ",right:" + tree + "})}");
        assertThat(TypeSyntax.parse("rec")).isEqualTo(new Type.Named("rec"));
        assertThat(Type.isGround(TypeSyntax.parse("rec<T,list<a>>"))).isFalse();
        assertThat(TypeSyntax.isVariableName("k10")).isTrue();
        assertThat(TypeSyntax.isVariableName("K")).isFalse();
    }

    @Test
    void nestedCallablesAreParenthesizedInSignatures() {
        Type.Fn apply = TypeSyntax.parseSignature("(int -> int) int -> int");
        assertThat(apply.ins().get(0)).isInstanceOf(Type.Fn.class);
        assertThat(apply.toString()).isEqualTo("(int -> int) int -> int");
    }

    @Test
    void effectsAreCanonicalAndSorted() {
        Type.Fn f = TypeSyntax.parseSignature("-> ! {session.emit, file.read(/x), fs.read(/a)}");
        assertThat(f.toString()).isEqualTo("-> ! {fs.read(/a),fs.read(/x),session.emit}");
    }
}
