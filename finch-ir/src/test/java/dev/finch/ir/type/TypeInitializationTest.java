package dev.finch.ir.type;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

/**
 * Regression: when {@link Type.Prim} was initialized before {@link Type}, a default method on Type made the JVM
 * initialize Type first, while Prim's constants were still null, so {@code Type.INT} stayed null forever.
 */
class TypeInitializationTest {
    @Test void constantsAreSetWhicheverClassInitializesFirst() throws Exception {
        URL classes = Type.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader fresh = new URLClassLoader(new URL[] {classes}, null)) {
            Class.forName("dev.finch.ir.type.Type$Prim", true, fresh);
            Class<?> type = Class.forName("dev.finch.ir.type.Type", true, fresh);
            for (String name : new String[] {"INT", "FLOAT", "BOOL", "STRING", "BYTES", "UNIT", "SYMBOL", "JSON", "PATH"}) {
                assertThat(type.getField(name).get(null)).as(name).isNotNull();
            }
        }
    }
}
