package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.readAndSay;
import static dev.finch.hostwords.HostFixture.session;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Approval scopes (once, task, session) and revocation, through real sessions. */
class ScopeTest {
    @TempDir Path ws;

    @BeforeEach
    void files() throws IOException {
        Files.writeString(ws.resolve("a.txt"), "A");
        Files.writeString(ws.resolve("b.txt"), "B");
    }

    static final String READ_A_TWICE = "(say \"0\") " + readAndSay("a.txt") + readAndSay("a.txt") + " (say \"!\")";

    @Test
    void onceCoversOneRequestOnly() {
        Session s = session(ws);
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(s, READ_A_TWICE, rec);
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        Outcome again = s.approve(o.executionId(), Scope.ONCE);
        // The second identical request of the same run pauses again, after the first one's output.
        assertThat(again.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(again.output()).isEqualTo("0A");
        assertThat(again.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        assertThat(s.pendingRequest(o.executionId()).orElseThrow().sequence()).isEqualTo(2);
        Outcome done = s.approve(o.executionId(), Scope.ONCE);
        assertThat(done.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("0AA!");
        assertThat(rec.requests).hasSize(2);
        assertThat(s.grants().grants()).isEmpty();
        // A later run asks again.
        assertThat(lisp(s, readAndSay("a.txt")).status()).isEqualTo(Outcome.Status.SUSPENDED);
    }

    @Test
    void taskCoversTheRestOfTheRunButNotTheNextOne() {
        Session s = session(ws);
        Outcome o = lisp(s, READ_A_TWICE + readAndSay("a.txt"));
        Outcome done = s.approve(o.executionId(), Scope.TASK);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("0AA!A");
        assertThat(s.grants().grants()).isEmpty();
        assertThat(lisp(s, readAndSay("a.txt")).status()).isEqualTo(Outcome.Status.SUSPENDED);
    }

    @Test
    void anApprovalCoversExactlyTheConcreteRequirement() {
        Session s = session(ws);
        Outcome o = lisp(s, readAndSay("a.txt") + readAndSay("b.txt"));
        Outcome next = s.approve(o.executionId(), Scope.TASK);
        assertThat(next.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(next.requiredCapabilities()).containsExactly("fs.read(${workspace}/b.txt)");
        assertThat(s.approve(o.executionId(), Scope.ONCE).output()).isEqualTo("AB");
    }

    @Test
    void sessionScopeCoversLaterSubmissionsUntilRevoked() {
        Session s = session(ws);
        Outcome o = lisp(s, readAndSay("a.txt"));
        assertThat(s.approve(o.executionId(), Scope.SESSION).output()).isEqualTo("A");
        assertThat(s.grants().grants()).hasSize(1);
        Grant g = s.grants().grants().get(0);
        assertThat(g.scope()).isEqualTo(Scope.SESSION);
        assertThat(g.spec().toString()).isEqualTo("fs.read(${workspace}/a.txt)");

        Outcome later = lisp(s, readAndSay("a.txt"));
        assertThat(later.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(later.output()).isEqualTo("A");
        // It covers only that file.
        assertThat(lisp(s, readAndSay("b.txt")).requiredCapabilities()).containsExactly("fs.read(${workspace}/b.txt)");

        assertThat(s.revoke(g.id())).isTrue();
        assertThat(s.revoke(g.id())).as("revoking twice").isFalse();
        assertThat(s.grants().grants()).isEmpty();
        Outcome after = lisp(s, readAndSay("a.txt"));
        assertThat(after.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(after.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
    }

    @Test
    void aGrantGivenWhenTheSessionOpensCanBeRevoked() {
        Session s = session(ws, HostFixture.READ_ALL);
        assertThat(lisp(s, readAndSay("a.txt")).output()).isEqualTo("A");
        String id = s.grants().grants().get(0).id();
        assertThat(s.revoke(id)).isTrue();
        assertThat(lisp(s, readAndSay("a.txt")).status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(s.revoke("no-such-grant")).isFalse();
    }

    @Test
    void sessionGrantsDoNotLeakToOtherSessions() {
        Session s = session(ws);
        s.approve(lisp(s, readAndSay("a.txt")).executionId(), Scope.SESSION);
        Session other = session(ws);
        assertThat(lisp(other, readAndSay("a.txt")).status()).isEqualTo(Outcome.Status.SUSPENDED);
    }

    @Test
    void approvingAFinishedOrUnknownExecutionIsRefused() {
        Session s = session(ws, HostFixture.READ_ALL);
        Outcome done = lisp(s, readAndSay("a.txt"));
        HostFixture.assertFailed(s.approve(done.executionId(), Scope.SESSION), "host", "E-SESSION-004");
        HostFixture.assertFailed(s.deny("nope", "x"), "host", "E-SESSION-004");
        assertThat(s.grants().grants()).hasSize(1);
    }
}
