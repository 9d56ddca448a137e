package dev.finch.mcp;

import dev.finch.Outcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** How the tests start the toy server as a real subprocess: {@code java -cp <this test class path> dev.finch.mcp.ToyServer}. */
final class Toys {
    private Toys() { }

    static String java() { return Path.of(System.getProperty("java.home"), "bin", "java").toString(); }

    /** JVM flags for a quick start of a small server. */
    static final List<String> QUICK = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xss512k");

    /** The toy server over stdio, named {@code name}, writing its pid to {@code pidFile}. */
    static McpServerSpec.Stdio stdio(String name, Path pidFile, String mainClass) {
        List<String> args = new java.util.ArrayList<>(QUICK);
        args.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        return new McpServerSpec.Stdio(name, java(), args, pidFile == null ? Map.of() : Map.of("TOY_PID_FILE", pidFile.toString()));
    }

    static McpServerSpec.Stdio stdio(String name, Path pidFile) { return stdio(name, pidFile, ToyServer.class.getName()); }

    /** Waits up to {@code millis} for {@code condition}. */
    static boolean eventually(long millis, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) return true;
            Thread.sleep(20);
        }
        return condition.getAsBoolean();
    }

    /** The outcome's one diagnostic code, for failure assertions. */
    static String code(Outcome o) { return o.diagnostics().isEmpty() ? "none" : o.diagnostics().get(0).code(); }
}
