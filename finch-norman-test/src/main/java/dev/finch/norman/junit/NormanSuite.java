package dev.finch.norman.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class whose selection (by Surefire, Gradle or an IDE, which select test classes) runs the µNorman files
 * under the given classpath folders through {@link NormanTestEngine}: the class selector fallback for build tools
 * that never pass classpath roots. The class itself needs no methods.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface NormanSuite {
    /** Classpath folders (slash-separated, e.g. {@code examples}) whose {@code .nm} files, at any depth, are run. */
    String[] value();
}
