package dev.finch.norman.harness;

import dev.finch.ir.diag.Origin;
import dev.finch.norman.Askable;
import dev.finch.norman.SiteKey;
import dev.finch.vm.engine.VmCode;
import dev.finch.host.ToolCapability;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The results a tool host answers a µNorman {@code call} with, for anyone writing a {@link dev.finch.host.ToolHost}
 * of their own: the value {@code ToolHost.call} returns is the {@code (Result T Failure)} of the call, in the VM's
 * representation, and these methods build it, so a binding never touches that representation.
 *
 * <pre>{@code
 * ToolHost weather = (capability, op, args, key, origin) -> {
 *     if (ToolResults.isFork(key)) return ToolResults.toolError("the weather service keeps no state to fork");
 *     if (!op.equals("now") || args.size() != 1) return ToolResults.toolError("weather has one operation: now CITY");
 *     String json = service.now(args.get(0));                           // the tool's own text
 *     return ToolResults.typed(capability, op, key, json, origin);     // (Ok value), or (Invalid raw)
 * };
 * }</pre>
 *
 * <ul>
 *   <li>{@link #typed}: the tool's text as the value the call declared. Each call's {@code key} (a {@link SiteKey})
 *       carries the result type of the grant's operation, so a declared {@code Text} is taken verbatim (only its byte
 *       bound is checked) and any other type reads the text as JSON and is validated strictly ({@link Validate}); a
 *       text that does not fit is {@code (Invalid raw)} — exactly as under a script, so the program's
 *       {@code retry} and {@code repair} work the same against the real tool.</li>
 *   <li>{@link #toolError}: whatever went wrong in the world (refused input, a non-2xx status, a timeout, an exception
 *       of the tool) — {@code (ToolError message)}, which {@code retry} may try again.</li>
 *   <li>{@link #invalid}: {@code (Invalid raw)} for a text the binding itself rejects.</li>
 *   <li>{@link #forked}: a kernel's answer to {@code fork} ({@link #isFork}), a new instance of its capability.</li>
 * </ul>
 * Budget failures ({@code OverBudget}, {@code PastDeadline}) are the model world's, never a tool's. A checked
 * run-time error of the program (a call key without a result type) is thrown, as a {@code ToolHost} does.
 */
public final class ToolResults {
    private ToolResults() { }

    /** True when {@code key} is that of a kernel's {@code fork} ({@link SiteKey#FORK}): answer {@link #forked} or a ToolError. */
    public static boolean isFork(String key) { return SiteKey.FORK.equals(key); }

    /**
     * The call's result for the tool's text {@code text}, typed by the declaration its {@code key} spells: {@code (Ok v)}
     * when the text is a value of the declared type, else {@code (Invalid text)}.
     *
     * @throws FinchTrap ({@code E-RUN-003}) when the key carries no result type, which only a malformed call (a defect) can do
     */
    public static Object typed(ToolCapability capability, String op, String key, String text, Origin origin) {
        Objects.requireNonNull(text, "text");
        Askable type = SiteKey.parse(key).map(SiteKey::type)
                .orElseThrow(() -> new FinchTrap(VmCode.INTERNAL, origin, "the call of `" + capability.grant() + "` " + op + " carries no result type (a defect of Finch's µNorman lowering)"));
        return typed(type, text);
    }

    /** {@code text} as a value of {@code type}: a declared Text verbatim within its bound, any other type as JSON. */
    static ResultValue typed(Askable type, String text) {
        if (type instanceof Askable.Text x) {
            long bytes = text.getBytes(StandardCharsets.UTF_8).length;
            return x.maxBytes().isPresent() && bytes > x.maxBytes().getAsLong() ? failure("Invalid", text) : ResultValue.ok(text);
        }
        Validate.Validated v = Validate.validate(text, type);
        return v.ok() ? ResultValue.ok(v.value().get()) : failure("Invalid", text);
    }

    /**
     * Why {@code text} is not a value of {@code type}, or empty when it is: a declared Text's bound, else
     * {@link Validate}'s reason — the JSON path, what was expected there and what was found.
     */
    static Optional<String> invalidity(Askable type, String text) {
        if (type instanceof Askable.Text x) {
            long bytes = text.getBytes(StandardCharsets.UTF_8).length;
            return x.maxBytes().isPresent() && bytes > x.maxBytes().getAsLong()
                    ? Optional.of("$: text of " + bytes + " bytes exceeds its bound of " + x.maxBytes().getAsLong()) : Optional.empty();
        }
        Validate.Validated v = Validate.validate(text, type);
        return v.ok() ? Optional.empty() : Optional.of(v.reason());
    }

    /** {@code (ToolError message)}: the tool could not do what was asked. */
    public static Object toolError(String message) { return failure("ToolError", Objects.requireNonNull(message, "message")); }

    /** {@code (Invalid raw)}: the tool answered {@code raw}, which is not what the call declared. */
    public static Object invalid(String raw) { return failure("Invalid", Objects.requireNonNull(raw, "raw")); }

    /** {@code (Ok instance)}: a kernel's answer to {@code fork}, typically {@code capability.withInstance(n)} for a fresh n. */
    public static Object forked(ToolCapability instance) { return ResultValue.ok(Objects.requireNonNull(instance, "instance")); }

    /** A short, single-line form of a failure's detail (an exception's message, a response body) for a ToolError message. */
    public static String brief(String s, int max) {
        String t = s == null ? "" : s.strip().replaceAll("\\s+", " ");
        return t.length() <= max ? t : t.substring(0, max) + "…";
    }

    /** A µNorman {@code Failure} with {@code tag}, carrying {@code text} (or nothing, for OverBudget and PastDeadline). */
    static ResultValue failure(String tag, String text) {
        return ResultValue.err(new VariantValue(tag, text == null ? Unit.INSTANCE : new RecordValue(new Object[] {text})));
    }
}
