package dev.finch.norman;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.type.Type;
import java.util.List;

/**
 * What a call of a memory grant lowers to, the grant's tree a literal and the path one where the program wrote one,
 * each reaching the word with no branch between (so the verifier infers the concrete requirement): Finch's memory words
 * themselves, so a µNorman program reaches memory exactly as a Lisp or Co-Forth one does — under
 * {@code memory.read(tree=T,path=P)} and {@code memory.write(tree=T,path=P)}, previewed, approved, journaled, its
 * writes staged until the run commits.
 *
 * <ul>
 *   <li>{@code get}: {@code memory-get} answers {@code option<json>}; {@code json-to-value} reads the json as the
 *       grant's value type τ (the inverse of {@code show}); the call answers {@code (Some v)}, {@code None} when there
 *       is no entry, or fails with {@code (Invalid raw)} — the stored json's text — when the entry is not a τ.</li>
 *   <li>{@code put}: the value written by {@code show} (the JSON a model's answer of τ is validated against), parsed
 *       as json, then {@code memory-put}; answers {@code #t}.</li>
 *   <li>{@code list}: {@code memory-list}, the paths at or under the prefix (at most 1,000).</li>
 *   <li>{@code delete}: {@code memory-delete}; answers {@code #t}.</li>
 * </ul>
 */
final class MemoryLowering {
    private MemoryLowering() { }

    /**
     * {@code get}, the tree and path on the stack: leaves {@code result<(Option τ),Failure>}, which the caller
     * propagates. {@code option} is the IR type of {@code (Option τ)}; {@code json}, {@code value} and {@code raw} are
     * fresh locals.
     */
    static void get(Type option, Type failure, String json, String value, String raw, Origin at, List<Instr> out) {
        Type result = Type.result(option, failure);
        Type tau = valueType(option);
        out.add(Word.MEMORY_GET.call(at));
        Instr some = Word.VARIANT.call(List.of(new Immediate.TypeArg(option), new Immediate.NameArg("Some")), at);
        Block found = Block.of(new Instr.LocalStore(value, at),
                new Instr.RecordLit(List.of(new Instr.RecordLit.Field("value", Block.of(new Instr.LocalLoad(value, at)), at)), at),
                some, Word.OK.call(List.of(new Immediate.TypeArg(result)), at));
        Block invalid = Block.of(new Instr.LocalLoad(json, at), Word.JSON_STRINGIFY.call(at), new Instr.LocalStore(raw, at),
                new Instr.RecordLit(List.of(new Instr.RecordLit.Field("raw", Block.of(new Instr.LocalLoad(raw, at)), at)), at),
                Word.VARIANT.call(List.of(new Immediate.TypeArg(failure), new Immediate.NameArg("Invalid")), at),
                Word.ERR.call(List.of(new Immediate.TypeArg(result)), at));
        Block entry = Block.of(new Instr.LocalStore(json, at), new Instr.LocalLoad(json, at),
                Word.JSON_TO_VALUE.call(List.of(new Immediate.TypeArg(Type.option(tau))), at),
                new Instr.IfSome(found, invalid, at));
        Block none = Block.of(Word.VARIANT.call(List.of(new Immediate.TypeArg(option), new Immediate.NameArg("None")), at),
                Word.OK.call(List.of(new Immediate.TypeArg(result)), at));
        out.add(new Instr.IfSome(entry, none, at));
    }

    /**
     * {@code put}, the value on the stack and the path already in the local {@code path} (stored once, right after it
     * was evaluated: what the verifier knows of a literal there survives the branches that make the json): the value
     * as the json {@code show} writes, then the tree, the path and that json for {@code memory-put}; leaves
     * {@code #t}. A value too deep for json (past 512 levels) is a checked run-time error.
     */
    static void put(String tree, String path, String json, Origin at, List<Instr> out) {
        out.add(Word.SHOW.call(at));
        out.add(Word.JSON_PARSE.call(at));
        out.add(new Instr.IfOk(Block.EMPTY, Block.of(
                new Instr.Push(new Literal.StringLit(at + ": the value cannot be stored in memory: "), at), Word.SWAP.call(at),
                Word.STRING_APPEND.call(at), Word.PROGRAM_ERROR.call(at)), at));
        out.add(new Instr.LocalStore(json, at));
        out.add(new Instr.Push(new Literal.StringLit(tree), at));
        out.add(new Instr.LocalLoad(path, at));
        out.add(new Instr.LocalLoad(json, at));
        out.add(Word.MEMORY_PUT.call(at));
        out.add(new Instr.Push(new Literal.BoolLit(true), at));
    }

    /** {@code list}, the tree and prefix on the stack: leaves the paths, a {@code list<string>}. */
    static void list(Origin at, List<Instr> out) { out.add(Word.MEMORY_LIST.call(at)); }

    /** {@code delete}, the tree and path on the stack: leaves {@code #t}. */
    static void delete(Origin at, List<Instr> out) {
        out.add(Word.MEMORY_DELETE.call(at));
        out.add(new Instr.Push(new Literal.BoolLit(true), at));
    }

    /** τ of {@code (Option τ)}: the {@code value} field of its {@code Some}. */
    private static Type valueType(Type option) {
        Type.VariantT v = (Type.VariantT) option;
        return ((Type.RecordT) v.tags().get("Some").orElseThrow()).fields().get("value");
    }
}
