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
        assertThat(all.failures()).anyMatch(f -> f.startsWith("dev/finch/norman/norman-type-error.nm loads | ") && f.contains("did not load"));
    }

    @Test void aUniqueIdSelectsOneTestForAnIdeRerun() {
        Launch l = launch(selectUniqueId(org.junit.platform.engine.UniqueId.forEngine(NormanTestEngine.ID)
                .append("file", "failing-examples/one-failure.nm").append("test", "3:1")));
        assertThat(l.summary().getTestsFoundCount()).isEqualTo(1);
        assertThat(l.summary().getTestsSucceededCount()).isEqualTo(1);
    }

    @Test void aFileThatDoesNotLoadFailsItsLoadTestWithItsDiagnostics() {
        Launch l = launch(selectClasspathResource("dev/finch/norman/norman-type-error.nm"));
        assertThat(l.summary().getTestsFailedCount()).isEqualTo(1);
        assertThat(l.summary().getContainersFailedCount()).isZero();
        assertThat(l.summary().getTestsSkippedCount()).isEqualTo(2);
        assertThat(l.failures()).singleElement().asString().startsWith("dev/finch/norman/norman-type-error.nm loads | ").contains("error[E-NORMAN-101]");
    }

    /** Launches with {@code root} (a folder of hostile files written by the test) as the context class path. */
    private static Launch launchIn(Path root, DiscoverySelector... selectors) throws Exception {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        try (java.net.URLClassLoader cl = new java.net.URLClassLoader(new java.net.URL[] {root.toUri().toURL()}, before)) {
            t.setContextClassLoader(cl);
            return launch(selectors);
        } finally {
            t.setContextClassLoader(before);
        }
    }

    /**
     * Issue 35 item 9: a .nm file that does not load — nested 100,000 deep, or not UTF-8 — is a failed test, never a
     * file dropped with its tests (a green build with tests missing); the files beside it still run.
     */
    @Test void aFileThatDoesNotParseIsAFailedTestNotADroppedFile(@org.junit.jupiter.api.io.TempDir Path root) throws Exception {
        Path dir = java.nio.file.Files.createDirectories(root.resolve("hostile"));
        java.nio.file.Files.writeString(dir.resolve("deep.nm"), "(check-expect " + "(".repeat(100_000) + "1" + ")".repeat(100_000) + " 1)\n");
        java.nio.file.Files.write(dir.resolve("not-utf8.nm"), new byte[] {'(', 'c', 'h', 'e', 'c', 'k', '-', 'e', 'x', 'p', 'e', 'c', 't', ' ', (byte) 0xff, (byte) 0xfe, ' ', '1', ' ', '1', ')', '\n'});
        java.nio.file.Files.writeString(dir.resolve("fine.nm"), "(check-expect (+ 1 2) 3)\n");
        Launch l = launchIn(root, selectPackage("hostile"));
        assertThat(l.summary().getTestsSucceededCount()).as("%s", l.failures()).isEqualTo(1);
        assertThat(l.summary().getTestsFailedCount()).as("%s", l.failures()).isEqualTo(2);
        assertThat(l.failures()).anyMatch(f -> f.startsWith("hostile/deep.nm loads | ") && f.contains("error[E-"));
        assertThat(l.failures()).anyMatch(f -> f.startsWith("hostile/not-utf8.nm loads | ") && f.contains("error[E-NORMAN-"));
    }

    /** Issue 35 item 9: a use of a class-path resource that is not µNorman fails the load without echoing its content. */
    @Test void aUseOfAResourceDoesNotEchoItsContent(@org.junit.jupiter.api.io.TempDir Path root) throws Exception {
        Path dir = java.nio.file.Files.createDirectories(root.resolve("leaky"));
        java.nio.file.Files.writeString(root.resolve("db.properties"), "db.user=app\ndb.password=hunter2-s3cret\n");
        java.nio.file.Files.writeString(dir.resolve("leak.nm"), "(use \"../db.properties\")\n(check-expect 1 1)\n");
        Launch l = launchIn(root, selectPackage("leaky"));
        assertThat(l.summary().getTestsFailedCount()).as("%s", l.failures()).isEqualTo(1);
        assertThat(l.failures()).singleElement().asString().contains("db.properties").doesNotContain("hunter2").doesNotContain("password");
    }
}
