package dev.finch.frontend.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The components against a brute-force oracle: reachability by the transitive closure of the adjacency matrix (Warshall). */
class ComponentsProperties {
    /** A random graph: {@code edges.get(i)} are node i's successors (repeats and self-loops allowed). */
    @Property(tries = 500)
    void componentsAreExactlyTheMutuallyReachableSetsCalleesFirst(@ForAll("graphs") List<List<Integer>> edges) {
        int n = edges.size();
        List<Integer> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) nodes.add(i);
        List<List<Integer>> components = Components.of(nodes, i -> edges.get(i).stream().map(nodes::get).toList());
        boolean[][] reach = reachability(edges);

        // Every node is in exactly one component.
        Map<Integer, Integer> componentOf = new HashMap<>();
        for (int c = 0; c < components.size(); c++) {
            for (int v : components.get(c)) assertThat(componentOf.put(v, c)).as("node %d twice", v).isNull();
        }
        assertThat(componentOf).hasSize(n);
        for (int u = 0; u < n; u++) {
            for (int v = 0; v < n; v++) {
                boolean together = componentOf.get(u).equals(componentOf.get(v));
                // Same component exactly when each reaches the other.
                assertThat(together).as("%d and %d", u, v).isEqualTo(u == v || reach[u][v] && reach[v][u]);
                // Callees first: what u reaches is in u's component or an earlier one.
                if (reach[u][v]) assertThat(componentOf.get(v)).as("%d reaches %d", u, v).isLessThanOrEqualTo(componentOf.get(u));
            }
        }
    }

    /** {@code reach[u][v]}: a path of one edge or more leads from u to v. */
    private static boolean[][] reachability(List<List<Integer>> edges) {
        int n = edges.size();
        boolean[][] r = new boolean[n][n];
        for (int u = 0; u < n; u++) for (int v : edges.get(u)) r[u][v] = true;
        for (int k = 0; k < n; k++) for (int u = 0; u < n; u++) if (r[u][k]) for (int v = 0; v < n; v++) if (r[k][v]) r[u][v] = true;
        return r;
    }

    @Provide
    Arbitrary<List<List<Integer>>> graphs() {
        return Arbitraries.integers().between(0, 14).flatMap(n -> n == 0 ? Arbitraries.just(List.<List<Integer>>of())
                : Arbitraries.integers().between(0, n - 1).list().ofMaxSize(4).list().ofSize(n));
    }
}
