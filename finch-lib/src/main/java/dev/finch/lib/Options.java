package dev.finch.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Values;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/** Options and results (contract: structured values are part of the shared ABI). */
public final class Options {
    private Options() { }

    @Word(name = "some", category = Category.OPTION, doc = "Wrap a value as present.")
    @Overload(sig = "a -> option<a>")
    public static Object some(Object v) { return OptionValue.some(v); }

    @Word(name = "none", category = Category.OPTION, doc = "The absent option; its type comes from context.")
    @Overload(sig = "-> option<a>")
    public static Object none() { return OptionValue.NONE; }

    @Word(name = "is-some", category = Category.OPTION, doc = "True when the option holds a value.")
    @Overload(sig = "option<a> -> bool")
    public static boolean isSome(OptionValue o) { return o.isSome(); }

    @Word(name = "unwrap", category = Category.OPTION, doc = "The payload of a some; E-OPTION-001 on none.")
    @Overload(sig = "option<a> -> a")
    public static Object unwrap(OptionValue v, Origin origin) {
        if (!v.isSome()) throw new FinchTrap(VmCode.OPTION_NONE, origin, "unwrap of none");
        return v.value();
    }

    @Word(name = "ok", category = Category.RESULT, doc = "Wrap a success; the error type comes from context.")
    @Overload(sig = "a -> result<a,e>")
    public static Object ok(Object v) { return ResultValue.ok(v); }

    @Word(name = "err", category = Category.RESULT, doc = "Wrap a failure; the success type comes from context.")
    @Overload(sig = "e -> result<a,e>")
    public static Object err(Object v) { return ResultValue.err(v); }

    @Word(name = "is-ok", category = Category.RESULT, doc = "True when the result is ok.")
    @Overload(sig = "result<a,e> -> bool")
    public static boolean isOk(ResultValue r) { return r.isOk(); }

    @Word(name = "result-unwrap", category = Category.RESULT, doc = "The payload of an ok; E-RESULT-001 on err.")
    @Overload(sig = "result<a,e> -> a")
    public static Object resultUnwrap(ResultValue v, Origin o) {
        if (!v.isOk()) throw new FinchTrap(VmCode.RESULT_UNWRAP_ERR, o, "result-unwrap of an err");
        return v.value();
    }

    @Word(name = "result-error", category = Category.RESULT, doc = "The payload of an err; E-RESULT-002 on ok.")
    @Overload(sig = "result<a,e> -> e")
    public static Object resultError(ResultValue v, Origin o) {
        if (v.isOk()) throw new FinchTrap(VmCode.RESULT_ERROR_OK, o, "result-error of an ok");
        return v.value();
    }

    @Word(name = "expect-ok", category = Category.RESULT, doc = "The ok payload; an err stops the run with its displayed failure.")
    @Overload(sig = "result<a,e> -> a")
    public static Object expectOk(ResultValue r, Type.Fn site, Origin o) {
        if (r.isOk()) return r.value();
        Type errType = ((Type.ResultT) site.ins().get(0)).err();
        throw new FinchTrap(VmCode.EXPECTED_OK, o, "uncaught failure: " + Values.display(errType, r.value(), 2000));
    }
}
