package dev.finch.host;

import dev.finch.vm.boundary.HostFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link LocalProcessHost} on its own: the watch, the environment, the scratch home, the bounds, the containment. */
class LocalProcessHostTest {
    @TempDir Path ws;

    private LocalProcessHost host() { return new LocalProcessHost(ws, Duration.ofSeconds(20), 1 << 20); }

    @Test
    void theWatchEndsAWaitingProcessAtOnce() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread stopper = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            stop.set(true);
        });
        stopper.start();
        // Killed for the watch (the message says why), not waited out: the sleep is 300 s, longer than the host's timeout.
        assertThatThrownBy(() -> host().run("/bin/sleep", List.of("300.291"), () -> stop.get() ? Optional.of("cancelled") : Optional.empty()))
                .isInstanceOf(HostFailure.class).hasMessageContaining("killed: cancelled");
        stopper.join();
    }

    @Test
    void theHostsOwnTimeoutStillApplies() {
        LocalProcessHost quick = new LocalProcessHost(ws, Duration.ofMillis(200), 1 << 20);
        assertThatThrownBy(() -> quick.run("/bin/sleep", List.of("300.292"))).isInstanceOf(HostFailure.class)
                .hasMessageContaining("did not finish within 200 ms");
    }

    @Test
    void theEnvironmentIsTheAllowlistPlusTheHostsVariables() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/env")), "needs /usr/bin/env");
        LocalProcessHost h = host().withEnvironment(Map.of("TOOL_MODE", "ci")).withEnvironment(Map.of("PATH", "/bin"));
        assertThat(h.environment()).containsExactly(Map.entry("PATH", "/bin"), Map.entry("TOOL_MODE", "ci"));
        String out = h.run("/usr/bin/env", List.of()).stdout();
        assertThat(out.lines().map(l -> l.substring(0, l.indexOf('='))))
                .containsExactlyInAnyOrder("PATH", "LANG", "LC_ALL", "HOME", "TMPDIR", "TOOL_MODE");
        assertThat(out).contains("PATH=/bin\n", "TOOL_MODE=ci\n", "LANG=C.UTF-8\n");
    }

    @Test
    void eachCallHasItsOwnScratchHomeDeletedAfterIt() throws Exception {
        LocalProcessHost noWorkspace = new LocalProcessHost(null, Duration.ofSeconds(20), 1 << 20);
        String first = noWorkspace.run("/bin/sh", List.of("-c", "touch \"$HOME/left\"; ln -s / \"$HOME/root\"; pwd")).stdout().strip();
        String second = noWorkspace.run("/bin/sh", List.of("-c", "ls -A \"$HOME\"; pwd")).stdout().strip();
        assertThat(Path.of(first)).doesNotExist();
        // Without a workspace the scratch directory is also the working directory; nothing carries over.
        assertThat(second).doesNotContain("left").isNotEqualTo(first);
        assertThat(Files.exists(Path.of("/bin/sh"))).as("deleting a scratch link never followed it").isTrue();
    }

    @Test
    void aMissingOrNonExecutableProgramCannotStart() throws Exception {
        assertThatThrownBy(() -> host().run("/no/such/program", List.of())).isInstanceOf(HostFailure.class).hasMessageContaining("cannot start");
        Path plain = Files.writeString(ws.resolve("plain.sh"), "#!/bin/sh\necho hi\n");
        assertThatThrownBy(() -> host().run(plain.toString(), List.of())).isInstanceOf(HostFailure.class).hasMessageContaining("cannot start");
        assertThatThrownBy(() -> host().run("relative", List.of())).isInstanceOf(HostFailure.class).hasMessageContaining("absolute");
    }

    @Test
    void malformedVariablesAreRefused() {
        assertThatThrownBy(() -> host().withEnvironment(Map.of("1A", "x"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> host().withEnvironment(Map.of("A B", "x"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> host().withEnvironment(Map.of("A", "x\0"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LocalProcessHost(ws, Duration.ZERO, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void underSetsidTheChildLeadsItsOwnSession() throws Exception {
        assumeTrue(LocalProcessHost.containment() == LocalProcessHost.Containment.SESSION, "needs setsid and /proc (Linux)");
        // Field 6 of /proc/self/stat is the session id; $$ is the shell's pid: equal for a session leader.
        String out = host().run("/bin/sh", List.of("-c", "echo $$; cut -d' ' -f6 /proc/$$/stat")).stdout();
        List<String> lines = out.lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).isEqualTo(lines.get(0));
        assertThat(Long.parseLong(lines.get(0))).isNotEqualTo(ProcessHandle.current().pid());
    }

    @Test
    void inAPidNamespaceTheChildIsProcessOne() throws Exception {
        assumeTrue(LocalProcessHost.containment() == LocalProcessHost.Containment.PID_NAMESPACE,
                "needs a PID namespace (util-linux unshare --pid: root or CAP_SYS_ADMIN)");
        assertThat(host().run("/bin/sh", List.of("-c", "echo $$")).stdout().strip()).isEqualTo("1");
    }

    @Test
    void outputAtTheBoundIsKeptAndOneByteMoreIsRefused() throws Exception {
        LocalProcessHost small = new LocalProcessHost(ws, Duration.ofSeconds(20), 1000);
        assertThat(small.run("/usr/bin/head", List.of("-c", "1000", "/dev/zero")).stdout()).hasSize(1000);
        assertThatThrownBy(() -> small.run("/usr/bin/head", List.of("-c", "1001", "/dev/zero"))).isInstanceOf(HostFailure.class)
                .hasMessageContaining("more than 1000 bytes");
    }
}
