package dev.finch.hostwords;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.vm.Value;
import dev.finch.automation.AutomationHost;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.vm.boundary.HostResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 3: the automation words through the public Session API against a recording {@link AutomationHost}.
 * Each word needs its own desktop.automate(OP); the host is called only after authorization, once; bad arguments
 * fail before anything is asked; without a host the desktop is absent (availability as data, E-HOST-013 otherwise).
 * These are also the paired no-grant cases of the automation words (NoGrantTest.PAIRED_WITH_THEIR_HOST).
 */
class AutomationTest {
    /** A desktop of one 800×600 screen and one window that records every call it receives. */
    static final class Recording implements AutomationHost {
        final List<String> calls = new ArrayList<>();

        @Override public synchronized Availability availability() {
            calls.add("availability");
            return Availability.yes("recording");
        }

        @Override public synchronized List<Display> displays() {
            calls.add("displays");
            return List.of(new Display("screen-0", 0, 0, 800, 600, true));
        }

        @Override public synchronized Windows windows() {
            calls.add("windows");
            return new Windows(List.of(new Window("0x1", "Notes \"draft\"", 10, 20, 300, 200)), "recording");
        }

        @Override public synchronized void click(int x, int y, Button button) throws HostFailure {
            if (x >= 800 || y >= 600) throw new HostFailure(HostCode.AUTOMATION, "(" + x + ", " + y + ") is on no screen");
            calls.add("click " + x + " " + y + " " + button.spelling());
        }

        @Override public synchronized void type(String text) {
            calls.add("type " + text);
        }
    }

    private static Session session(Finch.Tier tier, AutomationHost host, String... grants) {
        SessionOptions o = SessionOptions.builder().grants(List.of(grants)).build();
        return Finch.builder().tier(tier).build().newSession(host == null ? o : o.withAutomationHost(host));
    }

    private static Outcome lisp(Session s, String program) { return s.submit(Submission.of(program, "a.lisp")); }

    private static String top(Outcome o) {
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        return o.stack().get(o.stack().size() - 1).display();
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void everyWordAnswersItsResultAsJsonText(Finch.Tier tier) {
        Recording host = new Recording();
        Session s = session(tier, host, "desktop.automate(*)");
        assertThat(top(lisp(s, "(automation-availability)"))).isEqualTo("\"{\\\"available\\\":true,\\\"backend\\\":\\\"recording\\\"}\"");
        Outcome displays = lisp(s, "(automation-displays)");
        assertThat(displays.stack().get(0).type()).isEqualTo("string");
        assertThat(top(displays)).isEqualTo(quoted("{\"displays\":[{\"id\":\"screen-0\",\"x\":0,\"y\":0,\"width\":800,\"height\":600,\"primary\":true}]}"));
        assertThat(top(lisp(s, "(automation-windows)"))).isEqualTo(
                quoted("{\"source\":\"recording\",\"windows\":[{\"id\":\"0x1\",\"title\":\"Notes \\\"draft\\\"\",\"x\":10,\"y\":20,\"width\":300,\"height\":200}]}"));
        assertThat(top(lisp(s, "(automation-click 15 25 \"right\")"))).isEqualTo(quoted("{\"clicked\":true,\"x\":15,\"y\":25,\"button\":\"right\"}"));
        assertThat(top(s.submit(Submission.of("\"héllo\\n\" automation-type", "t.fth")))).isEqualTo(quoted("{\"typed\":6}"));
        assertThat(host.calls).containsExactly("availability", "displays", "windows", "click 15 25 right", "type héllo\n");
    }

    @Test
    void programsReadTheResultsAsJson() {
        Session s = session(Finch.Tier.INTERPRETED, new Recording(), "desktop.automate(displays)");
        assertThat(top(lisp(s, "(json-as-int (unwrap (json-get (unwrap (json-index (unwrap (json-get (result-unwrap (json-parse (automation-displays))) "
                + "\"displays\")) 0)) \"width\")))"))).isEqualTo("(some 800)");
    }

    private static String quoted(String json) { return Value.of(json).display(); }

    @Test
    void eachOperationNeedsItsOwnGrantAndTheHostWaitsForIt() {
        Recording host = new Recording();
        Session s = session(Finch.Tier.INTERPRETED, host, "desktop.automate(windows)");
        Outcome o = lisp(s, "(say \"looking\") (automation-windows) (automation-click 5 5 \"left\")");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).as("a window-list grant is no click grant").containsExactly("desktop.automate(click)");
        assertThat(o.inferredCapabilities()).containsExactlyInAnyOrder("desktop.automate(windows)", "desktop.automate(click)", "session.emit");
        assertThat(o.output()).isEqualTo("looking");
        assertThat(host.calls).as("nothing is clicked before the approval").containsExactly("windows");
        var pending = s.pendingRequest(o.executionId()).orElseThrow();
        assertThat(pending.operation()).isEqualTo("automation-click");
        assertThat(pending.arguments()).containsExactly("5", "5", "\"left\"");
        Outcome approved = s.approve(o.executionId(), Scope.ONCE);
        assertThat(top(approved)).contains("clicked");
        assertThat(host.calls).containsExactly("windows", "click 5 5 left");

        Outcome again = lisp(s, "(automation-type \"rm -rf\")");
        assertThat(again.requiredCapabilities()).containsExactly("desktop.automate(type)");
        Outcome denied = s.deny(again.executionId(), "not my terminal");
        assertThat(denied.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(denied.diagnostics().get(0).code()).isEqualTo("E-HOST-001");
        assertThat(host.calls).as("a denied request never reaches the desktop").containsExactly("windows", "click 5 5 left");
    }

    @Test
    void aSessionGrantCoversLaterRunsOfThatOperationOnly() {
        Recording host = new Recording();
        Session s = session(Finch.Tier.INTERPRETED, host);
        Outcome o = lisp(s, "(automation-availability)");
        assertThat(o.requiredCapabilities()).containsExactly("desktop.automate(availability)");
        assertThat(host.calls).isEmpty();
        s.approve(o.executionId(), Scope.SESSION);
        assertThat(top(lisp(s, "(automation-availability)"))).contains("true");
        assertThat(lisp(s, "(automation-displays)").requiredCapabilities()).containsExactly("desktop.automate(displays)");
        assertThat(host.calls).containsExactly("availability", "availability");
    }

    @Test
    void badArgumentsFailBeforeAnythingIsAsked() {
        Recording host = new Recording();
        Session s = session(Finch.Tier.COMPILED, host);
        for (String program : List.of("(automation-click 1 1 \"double\")", "(automation-click 1 1 \"LEFT\")", "(automation-click -1000001 1 \"left\")",
                "(automation-click 1 9999999 \"left\")", "(automation-type \"a\\u0000b\")", "(automation-type \"\\u001b[2J\")",
                "(automation-type (string-repeat \"x\" 10001))")) {
            Outcome o = lisp(s, program);
            assertThat(o.status()).as(program).isEqualTo(Outcome.Status.FAILED);
            assertThat(o.diagnostics().get(0).code()).as(program).isEqualTo("E-HOST-007");
            assertThat(o.requiredCapabilities()).as(program).isEmpty();
        }
        assertThat(host.calls).isEmpty();
    }

    @Test
    void theHostsFailureIsTheProgramsDiagnostic() {
        Session s = session(Finch.Tier.INTERPRETED, new Recording(), "desktop.automate(click)");
        Outcome o = lisp(s, "(automation-click 900 10 \"left\")");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics().get(0).code()).isEqualTo("E-HOST-023");
        assertThat(o.diagnostics().get(0).message()).contains("on no screen");
    }

    @Test
    void withoutAHostThereIsNoDesktop() {
        Session s = session(Finch.Tier.INTERPRETED, null, "desktop.automate(*)");
        assertThat(top(lisp(s, "(automation-availability)"))).isEqualTo(
                quoted("{\"available\":false,\"backend\":\"none\",\"reason\":\"no automation host is installed in this session\"}"));
        Session ungranted = session(Finch.Tier.INTERPRETED, null);
        Outcome asked = lisp(ungranted, "(automation-availability)");
        assertThat(asked.status()).as("nothing to authorize: no desktop is reached").isEqualTo(Outcome.Status.COMPLETED);
        for (String program : List.of("(automation-displays)", "(automation-windows)", "(automation-click 1 1 \"left\")", "(automation-type \"x\")")) {
            Outcome o = lisp(ungranted, program);
            assertThat(o.status()).as(program).isEqualTo(Outcome.Status.FAILED);
            assertThat(o.diagnostics().get(0).code()).as(program).isEqualTo("E-HOST-013");
            assertThat(o.requiredCapabilities()).as("%s: no request is made", program).isEmpty();
        }
    }

    @Test
    void aDeferredHostAnswersTheRequestItself() {
        Session s = Finch.create().newSession(SessionOptions.builder().grants(List.of("desktop.automate(click)")).deferred(true).build());
        Outcome o = lisp(s, "(automation-click 3 4 \"middle\")");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        var pending = s.pendingRequest(o.executionId()).orElseThrow();
        assertThat(pending.requirement()).hasToString("desktop.automate(click)");
        assertThat(pending.expectedResult()).hasToString("[string]");
        Outcome done = s.respond(o.executionId(), HostResponse.result(pending.sequence(), Value.of("{\"clicked\":true}")));
        assertThat(top(done)).isEqualTo(quoted("{\"clicked\":true}"));
    }

    @Test
    void aPausedClickSavedDurablyClicksOnceInTheProcessThatRestoresIt() {
        Finch keyed = dev.finch.persist.Images.keyed();
        Session s = keyed.newSession(SessionOptions.DEFAULT.withAutomationHost(new Recording()));
        Outcome o = lisp(s, "(automation-click 7 8 \"left\")");
        assertThat(o.requiredCapabilities()).containsExactly("desktop.automate(click)");
        String image = s.save(o.executionId());

        Recording there = new Recording();
        Session restored = keyed.restore(image, SessionOptions.DEFAULT.withAutomationHost(there));
        assertThat(top(restored.approve(o.executionId(), Scope.ONCE))).isEqualTo(quoted("{\"clicked\":true,\"x\":7,\"y\":8,\"button\":\"left\"}"));
        assertThat(there.calls).containsExactly("click 7 8 left");

        Outcome second = lisp(s, "(automation-type \"x\")");
        Session noDesktop = keyed.restore(s.save(second.executionId()), SessionOptions.DEFAULT);
        Outcome failed = noDesktop.approve(second.executionId(), Scope.ONCE);
        assertThat(failed.status()).as("restored where no desktop is installed: approved, then nothing to click with").isEqualTo(Outcome.Status.FAILED);
        assertThat(failed.diagnostics().get(0).code()).isEqualTo("E-HOST-013");
    }
}
