package dev.finch.lib;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.runtime.Traps;
import dev.finch.vm.value.Duration;
import dev.finch.vm.value.Money;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.Show;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/** Words µNorman's lowering needs (written values, exact money and time), usable from every frontend. */
public final class Norman {
    private Norman() { }

    @Word(name = "show", category = Category.STRING,
            doc = "Canonical text of a value: JSON with sorted keys and a tag for variants; money, durations and unlimited in µNorman literal syntax. "
                    + "E-LIMIT-005 for a text over the memory limit.")
    @Overload(sig = "a -> string")
    public static String show(Ctx ctx, Object value, Type.Fn site, Origin o) {
        try {
            return Show.show(site.ins().get(0), value, ctx);
        } catch (Show.Refused r) {
            throw new FinchTrap(VmCode.SHOW_REFUSED, o, "show: " + r.getMessage());
        } catch (FinchTrap t) {
            throw Traps.at(t, "show", o);
        }
    }

    @Word(name = "json-to-value", category = Category.JSON,
            doc = "Show's inverse: the value of the type fixed where it is used (json-to-value<option<T>>) whose show is this json, or none. "
                    + "E-SHOW-001 for a type with no written form.")
    @Overload(sig = "json -> option<a>")
    public static Object jsonToValue(Ctx ctx, JsonNode json, Type.Fn site, Origin o) {
        Type out = site.outs().get(0);
        Type value = out instanceof Type.OptionT opt ? opt.value() : out;
        try {
            return ShowReader.read(value, json, ctx).map(OptionValue::some).orElse(OptionValue.NONE);
        } catch (Show.Refused r) {
            throw new FinchTrap(VmCode.SHOW_REFUSED, o, "json-to-value: " + r.getMessage());
        } catch (FinchTrap t) {
            throw Traps.at(t, "json-to-value", o);
        }
    }

    @Word(name = "money-from-micros", category = Category.ARITHMETIC, doc = "Exact money from micro-dollars.")
    @Overload(sig = "int -> money")
    public static Money moneyFromMicros(long micros) { return Money.ofMicros(micros); }

    @Word(name = "duration-from-millis", category = Category.ARITHMETIC, doc = "An exact duration from milliseconds.")
    @Overload(sig = "int -> duration")
    public static Duration durationFromMillis(long millis) { return Duration.ofMillis(millis); }

    @Word(name = "money-unlimited", category = Category.ARITHMETIC, doc = "Unlimited money (written ∞).")
    @Overload(sig = "-> money")
    public static Money moneyUnlimited() { return Money.UNLIMITED; }

    @Word(name = "duration-unlimited", category = Category.ARITHMETIC, doc = "An unlimited duration (written ∞).")
    @Overload(sig = "-> duration")
    public static Duration durationUnlimited() { return Duration.UNLIMITED; }
}
