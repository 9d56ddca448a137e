package dev.finch.ir.instr;

import java.util.List;

/** A straight-line sequence of instructions; the body of a word, an arm, or a loop part. */
public record Block(List<Instr> instrs) {
    public static final Block EMPTY = new Block(List.of());

    public Block { instrs = List.copyOf(instrs); }

    public static Block of(Instr... instrs) { return new Block(List.of(instrs)); }

    public boolean isEmpty() { return instrs.isEmpty(); }
}
