package dev.finch.cli;

import dev.finch.SessionOptions;
import dev.finch.net.LocalNetHost;
import picocli.CommandLine.Option;

/**
 * Whether a session of {@code run}, {@code repl} or {@code mcp} has a network: by default Finch's own net host
 * ({@link LocalNetHost}: https only unless a grant names http://, no private address unless a grant names the host, the
 * address checked is the address connected to, bounded in time and size). Availability, never a grant: every request
 * still needs a {@code net.http(URL)} grant or an approval. {@code --no-net} leaves the session without one, so the HTTP
 * words fail with {@code E-HOST-013} before anything is asked.
 */
final class NetOptions {
    @Option(names = "--no-net", description = "No network for the HTTP words (by default they can reach what a net.http grant or an approval permits).")
    boolean noNet;

    @Option(names = "--net-timeout", paramLabel = "SECONDS", description = "The bound on one HTTP exchange, redirects included (default: 30).")
    Integer timeoutSeconds;

    @Option(names = "--net-max-bytes", paramLabel = "BYTES", description = "The bound on one HTTP response's body (default: 10485760).")
    Long maxBytes;

    /** {@code options} with the net host the flags ask for, if any. */
    SessionOptions install(SessionOptions options) throws UsageException {
        if (noNet) {
            if (timeoutSeconds != null || maxBytes != null) throw new UsageException("--no-net does not combine with --net-timeout or --net-max-bytes");
            return options;
        }
        LocalNetHost.Builder b = LocalNetHost.builder();
        if (timeoutSeconds != null) {
            if (timeoutSeconds < 1 || timeoutSeconds > 3600) throw new UsageException("--net-timeout takes 1 to 3600 seconds, not " + timeoutSeconds);
            b.timeout(java.time.Duration.ofSeconds(timeoutSeconds));
        }
        if (maxBytes != null) {
            if (maxBytes < 1 || maxBytes > (1L << 30)) throw new UsageException("--net-max-bytes takes 1 to 1073741824, not " + maxBytes);
            b.maxResponseBytes(maxBytes);
        }
        return options.withNetHost(b.build());
    }
}
