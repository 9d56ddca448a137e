package dev.finch.bench;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.Parser;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import org.luaj.vm2.lib.jse.JsePlatform;

/**
 * The first evaluation in a fresh JVM (issue 40's method): from {@code main}'s first line to the first answer of
 * {@code 1 2 +} (Finch: a new engine, a session, a submission), {@code return 1+2} (LuaJ: standard globals, load,
 * call) or a module's {@code run} (Chicory: parse, instantiate, call), printed in milliseconds. One engine per JVM;
 * run each several times: {@code java -Xms2g -Xmx2g -cp finch-bench/target/benchmarks.jar
 * dev.finch.bench.FirstEvaluation finch|luaj|chicory}.
 */
public final class FirstEvaluation {
    private FirstEvaluation() { }

    public static void main(String[] args) {
        long t0 = System.nanoTime();
        long answer = switch (args[0]) {
            case "finch" -> {
                try (Finch finch = Finch.builder().build()) {
                    Outcome o = finch.newSession().submit(Submission.of("1 2 +", "first.fth"));
                    if (!(o instanceof Outcome.Completed)) throw new IllegalStateException(o.toString());
                    yield 3;
                }
            }
            case "luaj" -> JsePlatform.standardGlobals().load("return 1+2").call().tolong();
            case "chicory" -> Instance.builder(Parser.parse(WasmModules.ONE_PLUS_TWO)).build().export("run").apply()[0];
            default -> throw new IllegalArgumentException("no engine " + args[0]);
        };
        long t1 = System.nanoTime();
        if (answer != 3) throw new IllegalStateException("1+2 = " + answer);
        System.out.printf("%-8s first evaluation %.1f ms%n", args[0], (t1 - t0) / 1e6);
    }
}
