package dev.finch.norman.junit;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;

/**
 * A {@link NormanSuite} class: the container of the files it names. Build tools report tests per class (Surefire
 * writes one report per class source), so the files' tests are reported under this class.
 */
final class NormanSuiteDescriptor extends AbstractTestDescriptor {
    NormanSuiteDescriptor(UniqueId id, Class<?> suite) { super(id, suite.getSimpleName(), ClassSource.from(suite)); }

    @Override public Type getType() { return Type.CONTAINER; }

    @Override public String getLegacyReportingName() { return ((ClassSource) getSource().orElseThrow()).getClassName(); }
}
