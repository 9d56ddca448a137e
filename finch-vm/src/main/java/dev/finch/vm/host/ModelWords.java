package dev.finch.vm.host;

import dev.finch.ir.diag.Origin;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;

/** The model words, called from both tiers: {@code model-ask} goes to the run's {@link ModelHost}. */
public final class ModelWords {
    private ModelWords() { }

    public static Object ask(Ctx ctx, Object context, String grant, String key, String site, Origin o) {
        ModelHost m = ctx.host.config().models();
        if (m == null) throw new FinchTrap(HostCode.NO_BINDING, o, "no model host is installed in this run, so `" + grant + "` cannot be asked");
        try {
            return m.ask(context, grant, key, site, o);
        } catch (HostFailure f) {
            throw new FinchTrap(f.code(), o, f.getMessage());
        }
    }
}
