package dev.finch.verifier;

import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Module;
import java.util.List;

/**
 * The verifier of the typed stack IR (the WebAssembly validation algorithm with type inference): one pass per
 * body over an operand type stack and structured control, with meta-variables resolved by unification so that
 * polymorphic and overloaded words, {@code none}/{@code ok}/{@code err} and words without signatures type
 * naturally; then effect inference. The output carries ground types (rigid type variables remain only inside
 * polymorphic words) and is what the VM compiles.
 *
 * <p>Tour: {@link ModuleChecker} (words on demand, program, constants) → {@code BodyChecker} (one instruction at
 * a time, with {@code ControlRules}, {@code LiteralRules}, {@code CallRules}, {@code SpecialWords},
 * {@code LocalRules}) over a {@code StackState}, with {@code Substitution}/{@code Unifier} for types →
 * {@code EffectInference} (capabilities, yields coverage, suspension). Every failure is a {@link VerifyCode}.
 */
public final class Verifier {
    private Verifier() { }

    /** Verifies {@code module} against the session {@code env}; never throws. */
    public static Verification verify(Module module, Environment env) {
        Origin at = module == null || module.source() == null ? Origin.UNKNOWN : new Origin(module.source(), 0, 0);
        if (module == null) return Verification.failed(List.of(VerifyCode.MALFORMED_IR.at(at, "no module to verify")));
        if (env == null) return Verification.failed(List.of(VerifyCode.MALFORMED_IR.at(at, "no environment (vocabulary, dictionary, stack) to verify against")));
        try {
            return new ModuleChecker(module, env).run();
        } catch (DiagnosticException e) {
            return Verification.failed(e.diagnostics());
        } catch (StackOverflowError e) {
            return Verification.failed(List.of(VerifyCode.VERIFIER_LIMIT.at(at, "the program is nested too deeply (or its words call each other "
                    + "in too long a chain) for the verifier; split it into smaller words")));
        } catch (RuntimeException e) {
            if (Boolean.getBoolean("finch.verifier.debug")) e.printStackTrace();
            return Verification.failed(List.of(VerifyCode.MALFORMED_IR.at(at, "the verifier could not read these instructions ("
                    + e.getClass().getSimpleName() + "); this is a frontend bug, not a program error")));
        }
    }
}
