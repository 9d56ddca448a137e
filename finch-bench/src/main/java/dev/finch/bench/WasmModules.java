package dev.finch.bench;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The WebAssembly modules {@link PeersBenchmark} gives Chicory, and the small binary encoder that writes them (the
 * build has no WebAssembly toolchain; wabt's wat2wasm would bring Guava, which the enforcer keeps out of this module).
 * Every function takes {@code i64} parameters and returns one {@code i64}, and is exported under its name; each
 * module's text format is in its Javadoc.
 */
final class WasmModules {
    private WasmModules() { }

    // The value type, block types and instructions used, by their binary opcodes.
    private static final int I64 = 0x7E;
    private static final int EMPTY = 0x40;
    private static final int BLOCK = 0x02;
    private static final int LOOP = 0x03;
    private static final int IF = 0x04;
    private static final int ELSE = 0x05;
    private static final int END = 0x0B;
    private static final int BR = 0x0C;
    private static final int BR_IF = 0x0D;
    private static final int CALL = 0x10;
    private static final int LOCAL_GET = 0x20;
    private static final int LOCAL_SET = 0x21;
    private static final int I64_CONST = 0x42;
    private static final int I64_LT_S = 0x53;
    private static final int I64_GE_S = 0x59;
    private static final int I64_ADD = 0x7C;
    private static final int I64_SUB = 0x7D;
    private static final int I64_MUL = 0x7E;

    /**
     * {@code (func (export "run") (result i64) (local $x i64) (local.set $x (i64.const i))
     * (i64.add (i64.mul (local.get $x) (i64.const 2)) (i64.const 1)))}: the one-line program {@code x = i; x*2+1}.
     */
    static byte[] turn(long i) {
        return module(new Func("run", 0, 1, new Code()
                .i64Const(i).localSet(0)
                .localGet(0).i64Const(2).op(I64_MUL).i64Const(1).op(I64_ADD)));
    }

    /** {@code (func (export "run") (result i64) (i64.add (i64.const 1) (i64.const 2)))}. */
    static final byte[] ONE_PLUS_TWO = module(new Func("run", 0, 0, new Code().i64Const(1).i64Const(2).op(I64_ADD)));

    /**
     * <pre>
     * (func $fib (export "fib") (param $n i64) (result i64)
     *   (if (result i64) (i64.lt_s (local.get $n) (i64.const 2))
     *     (then (local.get $n))
     *     (else (i64.add (call $fib (i64.sub (local.get $n) (i64.const 1)))
     *                    (call $fib (i64.sub (local.get $n) (i64.const 2)))))))
     * (func (export "sum") (param $n i64) (result i64) (local $i i64) (local $t i64)
     *   (block $done
     *     (loop $next
     *       (br_if $done (i64.ge_s (local.get $i) (local.get $n)))
     *       (local.set $t (i64.add (local.get $t) (local.get $i)))
     *       (local.set $i (i64.add (local.get $i) (i64.const 1)))
     *       (br $next)))
     *   (local.get $t))
     * </pre>
     */
    static final byte[] KERNELS = module(
            new Func("fib", 1, 0, new Code()
                    .localGet(0).i64Const(2).op(I64_LT_S)
                    .op(IF).op(I64)
                    .localGet(0)
                    .op(ELSE)
                    .localGet(0).i64Const(1).op(I64_SUB).call(0)
                    .localGet(0).i64Const(2).op(I64_SUB).call(0)
                    .op(I64_ADD)
                    .op(END)),
            new Func("sum", 1, 2, new Code()
                    .op(BLOCK).op(EMPTY)
                    .op(LOOP).op(EMPTY)
                    .localGet(1).localGet(0).op(I64_GE_S).brIf(1)
                    .localGet(2).localGet(1).op(I64_ADD).localSet(2)
                    .localGet(1).i64Const(1).op(I64_ADD).localSet(1)
                    .br(0)
                    .op(END)
                    .op(END)
                    .localGet(2)));

    // ---- the encoder ----

    /**
     * A function of {@code params} {@code i64} parameters returning one {@code i64}, with {@code locals} more {@code i64}
     * locals (numbered after the parameters), exported as {@code name}; its index is its position in the module.
     */
    record Func(String name, int params, int locals, Code body) { }

    /** A function body's instructions (its final {@code end} is added by {@link #module}). */
    static final class Code {
        private final Bytes out = new Bytes();

        Code op(int opcode) { out.write(opcode); return this; }
        Code i64Const(long value) { op(I64_CONST); out.signed(value); return this; }
        Code localGet(int index) { op(LOCAL_GET); out.unsigned(index); return this; }
        Code localSet(int index) { op(LOCAL_SET); out.unsigned(index); return this; }
        Code call(int function) { op(CALL); out.unsigned(function); return this; }
        Code br(int depth) { op(BR); out.unsigned(depth); return this; }
        Code brIf(int depth) { op(BR_IF); out.unsigned(depth); return this; }
    }

    /** A module of {@code funcs}: one type per function, sections type (1), function (3), export (7), code (10). */
    static byte[] module(Func... funcs) {
        Bytes types = new Bytes().unsigned(funcs.length);
        Bytes functions = new Bytes().unsigned(funcs.length);
        Bytes exports = new Bytes().unsigned(funcs.length);
        Bytes code = new Bytes().unsigned(funcs.length);
        for (int f = 0; f < funcs.length; f++) {
            Func func = funcs[f];
            types.write(0x60).unsigned(func.params());
            for (int p = 0; p < func.params(); p++) types.write(I64);
            types.unsigned(1).write(I64);
            functions.unsigned(f);
            exports.name(func.name()).write(0x00).unsigned(f);
            Bytes body = new Bytes();
            if (func.locals() == 0) body.unsigned(0);
            else body.unsigned(1).unsigned(func.locals()).write(I64);
            body.append(func.body().out).write(END);
            code.sized(body);
        }
        Bytes module = new Bytes().write(0x00).write('a').write('s').write('m').write(1).write(0).write(0).write(0);
        module.write(1).sized(types).write(3).sized(functions).write(7).sized(exports).write(10).sized(code);
        return module.toByteArray();
    }

    /** Bytes with the binary format's LEB128 integers, sized vectors and names. */
    private static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes write(int b) { out.write(b); return this; }

        Bytes unsigned(long value) {
            do {
                int b = (int) (value & 0x7F);
                value >>>= 7;
                write(value == 0 ? b : b | 0x80);
            } while (value != 0);
            return this;
        }

        Bytes signed(long value) {
            while (true) {
                int b = (int) (value & 0x7F);
                value >>= 7;
                boolean done = (value == 0 && (b & 0x40) == 0) || (value == -1 && (b & 0x40) != 0);
                write(done ? b : b | 0x80);
                if (done) return this;
            }
        }

        Bytes name(String name) {
            byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
            unsigned(utf8.length);
            out.writeBytes(utf8);
            return this;
        }

        Bytes append(Bytes other) { out.writeBytes(other.toByteArray()); return this; }

        Bytes sized(Bytes content) { return unsigned(content.out.size()).append(content); }

        byte[] toByteArray() { return out.toByteArray(); }
    }
}
