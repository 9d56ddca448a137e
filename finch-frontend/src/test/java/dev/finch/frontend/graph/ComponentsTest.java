package dev.finch.frontend.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The kit's one strongly-connected-components search, on graphs whose components are known. */
class ComponentsTest {
    private static List<List<String>> of(Map<String, List<String>> graph, String... order) {
        return Components.of(List.of(order), graph::get);
    }

    @Test
    void aGraphWithoutEdgesIsOneComponentPerNodeInOrder() {
        assertThat(of(Map.of("a", List.of(), "b", List.of(), "c", List.of()), "a", "b", "c"))
                .containsExactly(List.of("a"), List.of("b"), List.of("c"));
    }

    @Test
    void calleesComeFirst() {
        // a uses b, b uses c: c is typed first.
        assertThat(of(Map.of("a", List.of("b"), "b", List.of("c"), "c", List.of()), "a", "b", "c"))
                .containsExactly(List.of("c"), List.of("b"), List.of("a"));
    }

    @Test
    void mutualRecursionIsOneComponentInTheOrderTheSearchReachedIt() {
        Map<String, List<String>> g = Map.of(
                "main", List.of("even"),
                "even", List.of("odd", "zero"),
                "odd", List.of("even"),
                "zero", List.of(),
                "self", List.of("self"));
        assertThat(of(g, "main", "even", "odd", "zero", "self"))
                .containsExactly(List.of("zero"), List.of("even", "odd"), List.of("main"), List.of("self"));
    }

    @Test
    void theClassicExample() {
        // Tarjan's 1972 figure: three components {a b e}, {c d h}, {f g}.
        Map<String, List<String>> g = Map.of(
                "a", List.of("b"), "b", List.of("c", "e", "f"), "c", List.of("d", "g"), "d", List.of("c", "h"),
                "e", List.of("a", "f"), "f", List.of("g"), "g", List.of("f"), "h", List.of("d", "g"));
        List<List<String>> components = of(g, "a", "b", "c", "d", "e", "f", "g", "h");
        assertThat(components).hasSize(3);
        assertThat(components.get(0)).containsExactlyInAnyOrder("f", "g");
        assertThat(components.get(1)).containsExactlyInAnyOrder("c", "d", "h");
        assertThat(components.get(2)).containsExactlyInAnyOrder("a", "b", "e");
    }

    @Test
    void nodesAreComparedByIdentity() {
        record Def(String name) { }
        Def first = new Def("x");
        Def second = new Def("x");
        assertThat(Components.of(List.of(first, second), d -> d == first ? List.of(second) : List.of()))
                .containsExactly(List.of(second), List.of(first));
    }

    @Test
    void aChainAsLongAsTheSourceAllowsDoesNotRecurse() {
        int n = 300_000;
        List<Integer> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) nodes.add(i);
        // i uses i + 1, and the last uses the first: one component of n.
        List<List<Integer>> one = Components.of(nodes, i -> List.of(nodes.get((i + 1) % n)));
        assertThat(one).hasSize(1);
        assertThat(one.get(0)).hasSize(n).startsWith(0, 1, 2);
        // Without the back edge: n components, the last node first.
        List<List<Integer>> chain = Components.of(nodes, i -> i + 1 < n ? List.of(nodes.get(i + 1)) : List.of());
        assertThat(chain).hasSize(n);
        assertThat(chain.get(0)).containsExactly(n - 1);
    }

    @Test
    void anEdgeOutOfTheGraphOrANodeTwiceIsRefused() {
        assertThatThrownBy(() -> Components.of(List.of("a"), x -> List.of("b"))).isInstanceOf(IllegalArgumentException.class);
        String a = "a";
        assertThatThrownBy(() -> Components.of(List.of(a, a), x -> List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
