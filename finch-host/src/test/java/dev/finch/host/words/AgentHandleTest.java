package dev.finch.host.words;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.capabilities.GrantSet;
import dev.finch.host.AgentHost;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.runtime.FinchTrap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Ownership and rebinding of agent handles: only the owner node operates on a live handle; a restored one binds once. */
class AgentHandleTest {
    private static final AgentHost.SpawnRequest REQUEST = new AgentHost.SpawnRequest("t", "", "", "p", "", List.of(), GrantSet.EMPTY, 1, 1, 1, 0, 1);

    private record Child(String taskId, String owner) implements AgentHost.Child {
        @Override public AgentHost.SpawnRequest request() { return REQUEST; }
        @Override public AgentHost.Snapshot snapshot() { return new AgentHost.Snapshot(taskId, "", AgentHost.Status.RUNNING, "t", "", "p/m", 1, ""); }
        @Override public CompletableFuture<Void> whenDone() { return new CompletableFuture<>(); }
        @Override public Optional<AgentHost.Result> result() { return Optional.empty(); }
        @Override public void cancel() { }
    }

    /** A node {@code name} whose scheduler has {@code known} (or nothing). */
    private static AgentHost node(String name, AgentHost.Child known, AtomicInteger finds) {
        return new AgentHost() {
            @Override public String node() { return name; }
            @Override public int depth() { return 0; }
            @Override public int childrenCreated() { return 0; }
            @Override public Bounds bounds() { return Bounds.DEFAULT; }
            @Override public Child spawn(SpawnRequest request) { throw new AssertionError("not here"); }
            @Override public Optional<Child> find(String taskId, String owner) {
                finds.incrementAndGet();
                return known != null && known.taskId().equals(taskId) && known.owner().equals(owner) ? Optional.of(known) : Optional.empty();
            }
        };
    }

    @Test void onlyTheOwnerNodeOperatesOnALiveHandle() {
        AgentHandle h = new AgentHandle(new Child("t7", "alice"));
        assertThat(h.id()).isEqualTo(7);
        AtomicInteger finds = new AtomicInteger();
        h.bind(node("alice", null, finds), r -> { throw new AssertionError("a live handle is never remade"); }, Origin.UNKNOWN);
        assertThatThrownBy(() -> h.bind(node("mallory", null, finds), r -> null, Origin.UNKNOWN))
                .isInstanceOf(FinchTrap.class).extracting(e -> ((FinchTrap) e).diagnostic().code()).isEqualTo("E-AGENT-005");
        assertThat(finds).hasValue(0);
    }

    @Test void aRestoredHandleIsAdoptedOnceOrRemadeFromItsRequest() {
        AtomicInteger finds = new AtomicInteger();
        Child running = new Child("t3", "alice");
        AgentHandle adopted = AgentHandle.restored("t3", "alice", REQUEST, null);
        adopted.bind(node("bob", running, finds), r -> { throw new AssertionError("found, not remade"); }, Origin.UNKNOWN);
        assertThat(adopted.owner()).isEqualTo("bob");
        adopted.bind(node("bob", running, finds), r -> { throw new AssertionError(); }, Origin.UNKNOWN);
        assertThat(finds).as("bound once").hasValue(1);

        AgentHandle remade = AgentHandle.restored("t3", "carol", REQUEST, null);
        AtomicInteger made = new AtomicInteger();
        remade.bind(node("bob", running, finds), r -> {
            made.incrementAndGet();
            assertThat(r).isSameAs(REQUEST);
            return new Child("t9", "bob");
        }, Origin.UNKNOWN);
        assertThat(made).as("the saved owner does not match: made again").hasValue(1);
        assertThat(remade.child()).map(AgentHost.Child::taskId).contains("t9");
    }

    @Test void aRestoredHandleOfAnEndedChildNeedsNoTask() {
        AgentHost.Result done = new AgentHost.Result("t1", "s2", AgentHost.Status.COMPLETED, "hi", List.of(), 1, 5, "p/m", 1, "h");
        AgentHandle h = AgentHandle.restored("t1", "alice", REQUEST, done);
        assertThat(h.whenDone()).isDone();
        h.bind(node("bob", null, new AtomicInteger()), r -> { throw new AssertionError(); }, Origin.UNKNOWN);
        assertThat(h.result()).contains(done);
    }
}
