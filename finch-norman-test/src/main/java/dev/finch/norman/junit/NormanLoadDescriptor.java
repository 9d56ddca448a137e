package dev.finch.norman.junit;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/**
 * A file's load, as a test of its own ({@code examples/shapes.nm loads}): there only when the file does not load —
 * it cannot be read as UTF-8, does not parse (too deep, too long), does not check, or its top level fails — and then
 * it fails with the diagnostics. A file that does not load is never a container with no tests, which JUnit would drop
 * from the plan without a word (a green build with tests missing).
 */
final class NormanLoadDescriptor extends AbstractTestDescriptor {
    /** The last segment of its unique id. */
    static final String SEGMENT = "load";

    NormanLoadDescriptor(UniqueId fileId, String resource, TestSource source) {
        super(fileId.append("test", SEGMENT), resource + " loads", source);
    }

    @Override public Type getType() { return Type.TEST; }
}
