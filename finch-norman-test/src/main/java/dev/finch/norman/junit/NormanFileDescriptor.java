package dev.finch.norman.junit;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/** One {@code .nm} file: a container whose children are its unit tests, loaded once before they run. */
final class NormanFileDescriptor extends AbstractTestDescriptor {
    final String resource;
    final String text;

    NormanFileDescriptor(UniqueId id, String resource, String text, TestSource source) {
        super(id, resource, source);
        this.resource = resource;
        this.text = text;
    }

    @Override public Type getType() { return Type.CONTAINER; }

    /**
     * The name build tools report the file under as if it were a class: Surefire names its report files after it,
     * so the folder separators become dots ({@code examples/shapes.nm} → {@code examples.shapes.nm}).
     */
    @Override public String getLegacyReportingName() { return resource.replace('/', '.'); }
}
