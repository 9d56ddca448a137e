package dev.finch.forth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.print.CoForthPrinter;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every instruction kind has a sample program that the canonical printer spells and the Co-Forth frontend reads
 * back to the same IR. The samples are an exhaustive switch: a new kind does not compile here until it has one.
 */
class EveryKindRoundTripTest {
    private static final Origin O = Origin.UNKNOWN;

    private static Instr push(long v) { return new Instr.Push(new Literal.IntLit(v), O); }

    private static Instr call(String w) { return new Instr.Call(w, O); }

    /** A program whose top level holds an instruction of {@code kind} (after whatever it needs to be spelled). */
    static Block sample(Instr.Kind kind) {
        Block one = Block.of(push(1));
        return switch (kind) {
            case PUSH -> Block.of(new Instr.Push(new Literal.JsonLit("{\"a\":[1]}"), O));
            case CALL -> Block.of(new Instr.Call("variant", List.of(new Immediate.TypeArg(TypeSyntax.parse("variant{a|b(int)}")),
                    new Immediate.NameArg("a")), O));
            case IF -> Block.of(new Instr.If(one, Block.of(call("dup")), O));
            case IF_SOME -> Block.of(new Instr.IfSome(Block.of(call("drop")), one, O));
            case IF_OK -> Block.of(new Instr.IfOk(one, Block.EMPTY, O));
            case LOOP -> Block.of(new Instr.Loop(Block.of(call("dup")), one, O));
            case UNTIL -> Block.of(new Instr.Until(Block.of(call("dup")), O));
            case CASE -> Block.of(new Instr.Case(List.of(new Instr.Case.Arm(-3, one, O)), Optional.of(Block.of(call("drop"))), O));
            case LIST -> Block.of(new Instr.ListLit(Block.of(push(1), push(2)), O));
            case MAP -> Block.of(new Instr.MapLit(Block.of(new Instr.Push(new Literal.StringLit("k"), O), push(1)), O));
            case RECORD -> Block.of(new Instr.RecordLit(List.of(new Instr.RecordLit.Field("name", one, O)), O));
            case QUOTE -> Block.of(new Instr.Quote("dup", O));
            case CLOSURE -> Block.of(new Instr.Closure(TypeSyntax.parseSignature("int -> int"), Block.of(call("dup"), call("*")), O));
            case LOCAL_STORE -> Block.of(push(1), new Instr.LocalStore("x", O));
            case LOCAL_LOAD -> Block.of(push(1), new Instr.LocalStore("x", O), new Instr.LocalLoad("x", O));
            case PROPAGATE -> Block.of(new Instr.Propagate(O));
            case CONSTANT -> Block.of(push(1), new Instr.Constant("limit", Optional.of(Type.Prim.INT), O));
        };
    }

    @Test
    void everyKindPrintsAndLowersBack() {
        for (Instr.Kind k : Instr.Kind.values()) {
            Block main = sample(k);
            assertThat(main.instrs()).extracting(Instr::kind).as(k.name()).contains(k);
            Module m = new Module("src", "forth", List.of(), main);
            String text = CoForthPrinter.print(m);
            Lowering l = new CoForth().lower(text, "kinds", Ir.ENV);
            assertThat(l.diagnostics()).as(text).isEmpty();
            assertThat(Ir.erase(l.module().orElseThrow())).as(text).isEqualTo(Ir.erase(m));
        }
    }
}
