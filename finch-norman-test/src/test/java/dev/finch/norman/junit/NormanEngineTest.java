package dev.finch.norman.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClasspathResourceSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** The engine, launched through the JUnit Platform Launcher as an IDE or Surefire would. */
class NormanEngineTest {
    private static LauncherDiscoveryRequest request(DiscoverySelector... selectors) {
        return LauncherDiscoveryRequestBuilder.request().selectors(selectors)
                .filters(org.junit.platform.launcher.EngineFilter.includeEngines(NormanTestEngine.ID)).build();
    }

    /** What one launch did: its summary, and the display names of the tests that failed with their messages. */
    private record Launch(TestExecutionSummary summary, List<String> failures, TestPlan plan) { }

    private static Launch launch(DiscoverySelector... selectors) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        List<String> failures = new ArrayList<>();
        TestPlan[] plan = new TestPlan[1];
        TestExecutionListener record = new TestExecutionListener() {
            @Override public void testPlanExecutionStarted(TestPlan p) { plan[0] = p; }

            @Override public void executionFinished(TestIdentifier id, TestExecutionResult r) {
                if (r.getStatus() == TestExecutionResult.Status.FAILED) {
                    failures.add(id.getDisplayName() + " | " + r.getThrowable().map(Throwable::getMessage).orElse(""));
                }
            }
        };
        launcher.execute(request(selectors), summary, record);
        return new Launch(summary.getSummary(), failures, plan[0]);
    }

    @Test void theIntentionallyFailingExampleReportsExactlyOneFailure() {
        Launch l = launch(selectClasspathResource("failing-examples/one-failure.nm"));
        assertThat(l.summary().getTestsFoundCount()).isEqualTo(2);
        assertThat(l.summary().getTestsSucceededCount()).isEqualTo(1);
        assertThat(l.summary().getTestsFailedCount()).isEqualTo(1);
        assertThat(l.failures()).containsExactly(
                "failing-examples/one-failure.nm:4:1 check-expect | failing-examples/one-failure.nm:4:1: check-expect: expected 7 but found 6");
    }

    @Test void testsAreNamedBySourceLocationAndPointIntoTheirFile() {
        Launch l = launch(selectClasspathResource("examples/shapes.nm"));
        assertThat(l.summary().getTestsFailedCount()).as("%s", l.failures()).isZero();
        List<String> names = new ArrayList<>();
        l.plan().getRoots().forEach(root -> l.plan().getDescendants(root).stream().filter(TestIdentifier::isTest).forEach(t -> {
            names.add(t.getDisplayName());
            assertThat(t.getSource()).get().isInstanceOfSatisfying(ClasspathResourceSource.class,
                    s -> assertThat(s.getPosition()).isPresent());
        }));
        assertThat(names).hasSize(6).first().isEqualTo("examples/shapes.nm:20:1 check-expect");
    }

    @Test void theSuiteClassSelectsTheExamplesAndDocs() {
        Launch l = launch(selectClass(NormanExamplesTest.class));
        assertThat(l.summary().getTestsFoundCount()).isGreaterThanOrEqualTo(18);
        assertThat(l.summary().getTestsFailedCount()).as("%s", l.failures()).isZero();
        assertThat(l.summary().getContainersFailedCount()).as("%s", l.failures()).isZero();
    }

    @Test void packageAndClasspathRootSelectorsFindFilesAtAnyDepth() throws URISyntaxException {
        Launch pkg = launch(selectPackage("failing-examples"));
        assertThat(pkg.summary().getTestsFoundCount()).isEqualTo(2);
        Path root = Path.of(NormanEngineTest.class.getResource("/examples/shapes.nm").toURI()).getParent().getParent();
        Launch all = launch(selectClasspathRoots(Set.of(root)).toArray(DiscoverySelector[]::new));
        // examples/, docs/, failing-examples/ and the frontend's own fixtures (one of which, an agentic file, does not load).
        assertThat(all.summary().getTestsFoundCount()).isGreaterThan(launch(selectClass(NormanExamplesTest.class)).summary().getTestsFoundCount());
        assertThat(all.failures()).anyMatch(f -> f.startsWith("failing-examples/one-failure.nm:4:1"));
        assertThat(all.failures()).anyMatch(f -> f.startsWith("dev/finch/norman/norman-type-error.nm | ") && f.contains("did not load"));
    }

    @Test void aUniqueIdSelectsOneTestForAnIdeRerun() {
        Launch l = launch(selectUniqueId(org.junit.platform.engine.UniqueId.forEngine(NormanTestEngine.ID)
                .append("file", "failing-examples/one-failure.nm").append("test", "3:1")));
        assertThat(l.summary().getTestsFoundCount()).isEqualTo(1);
        assertThat(l.summary().getTestsSucceededCount()).isEqualTo(1);
    }

    @Test void aFileThatDoesNotLoadFailsAsAContainerWithItsDiagnostics() {
        Launch l = launch(selectClasspathResource("dev/finch/norman/norman-type-error.nm"));
        assertThat(l.summary().getContainersFailedCount()).isEqualTo(1);
        assertThat(l.summary().getTestsSkippedCount()).isEqualTo(2);
        assertThat(l.failures()).singleElement().asString().contains("error[E-NORMAN-101]");
    }
}
