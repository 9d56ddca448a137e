package dev.finch.norman.providers;

import dev.finch.ir.diag.Origin;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.host.ToolCapability;
import dev.finch.host.ToolHost;
import dev.finch.vm.runtime.FinchTrap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run's tool host made of one binding per grant name ({@code HostConfig.with(ToolHost.class, Tools.of(Map.of("web", http,
 * "py", kernel)))}). A call of a grant with no binding is a checked run-time error ({@code E-HOST-013}).
 * Closing it closes every binding that is {@link AutoCloseable} (a live kernel's process).
 */
public final class Tools implements ToolHost, AutoCloseable {
    private final Map<String, ToolHost> bindings;

    private Tools(Map<String, ToolHost> bindings) { this.bindings = bindings; }

    /** The bindings by grant name. */
    public static Tools of(Map<String, ? extends ToolHost> bindings) { return new Tools(new LinkedHashMap<>(bindings)); }

    @Override public Object call(ToolCapability capability, String op, List<String> args, String key, Origin origin) throws HostFailure {
        ToolHost t = bindings.get(capability.grant());
        if (t == null) throw new FinchTrap(HostCode.NO_BINDING, origin, "no tool binding is installed for `" + capability.grant() + "`");
        return t.call(capability, op, args, key, origin);
    }

    /** Concurrent when every binding is. */
    @Override public boolean concurrent() { return bindings.values().stream().allMatch(ToolHost::concurrent); }

    @Override public void close() {
        for (ToolHost t : bindings.values()) {
            if (t instanceof AutoCloseable c) {
                try { c.close(); } catch (Exception ignored) { /* best effort: close the others */ }
            }
        }
    }
}
