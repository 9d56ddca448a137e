package dev.finch.norman.junit;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/** One unit test of a file, named by its source location and form, e.g. {@code examples/basics.nm:3:1 check-expect}. */
final class NormanUnitTestDescriptor extends AbstractTestDescriptor {
    /** Its position among the file's unit tests, as the harness numbers them. */
    final int index;

    NormanUnitTestDescriptor(UniqueId id, String name, TestSource source, int index) {
        super(id, name, source);
        this.index = index;
    }

    @Override public Type getType() { return Type.TEST; }
}
