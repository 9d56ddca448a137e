package dev.finch.frontend.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The strongly connected components of a graph (Tarjan's algorithm), the order in which a frontend types its
 * definitions: each component is a group of mutually recursive definitions, and a component comes after every
 * component it reaches, so what a definition uses is typed before it ("callees first").
 *
 * <p>The search keeps its own stack of frames instead of recursing, so a chain of definitions each using the next may
 * be as long as the source allows. Nodes are compared by identity (two equal records are two definitions). Roots are
 * searched in the order given and each node's successors in the order its function lists them, so the result is a
 * function of the input alone: the same program is always typed in the same order.
 */
public final class Components {
    private Components() { }

    /**
     * The components of the graph of {@code nodes}, callees first. Each component lists its nodes in the order the
     * search reached them. A successor that is not among {@code nodes} is refused ({@link IllegalArgumentException}):
     * the caller decides which names are edges.
     *
     * @param nodes      every node, each once
     * @param successors the nodes a node uses (any order; repeats are harmless), asked once per node, in the order of
     *                   {@code nodes}
     */
    public static <N> List<List<N>> of(List<N> nodes, Function<? super N, ? extends List<? extends N>> successors) {
        Objects.requireNonNull(successors, "successors");
        Map<N, Node<N>> byNode = new IdentityHashMap<>();
        for (N n : nodes) {
            if (byNode.put(Objects.requireNonNull(n, "node"), new Node<>(n)) != null) throw new IllegalArgumentException("a node is listed twice: " + n);
        }
        for (N n : nodes) {
            Node<N> v = byNode.get(n);
            List<? extends N> out = successors.apply(n);
            List<Node<N>> edges = new ArrayList<>(out.size());
            for (N w : out) {
                Node<N> target = byNode.get(w);
                if (target == null) throw new IllegalArgumentException("an edge leads outside the graph: " + w);
                edges.add(target);
            }
            v.edges = edges;
        }
        List<List<N>> result = new ArrayList<>();
        Deque<Node<N>> stack = new ArrayDeque<>();
        Deque<Node<N>> frames = new ArrayDeque<>();
        int counter = 0;
        for (N n : nodes) {
            Node<N> root = byNode.get(n);
            if (root.index >= 0) continue;
            counter = open(root, counter, stack, frames);
            while (!frames.isEmpty()) {
                Node<N> v = frames.peek();
                if (v.next < v.edges.size()) {
                    Node<N> w = v.edges.get(v.next++);
                    if (w.index < 0) counter = open(w, counter, stack, frames);
                    else if (w.onStack) v.low = Math.min(v.low, w.index);
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    Node<N> parent = frames.peek();
                    parent.low = Math.min(parent.low, v.low);
                }
                if (v.low == v.index) {
                    List<N> component = new ArrayList<>();
                    Node<N> w;
                    do {
                        w = stack.pop();
                        w.onStack = false;
                        component.add(w.node);
                    } while (w != v);
                    Collections.reverse(component);
                    result.add(component);
                }
            }
        }
        return result;
    }

    private static <N> int open(Node<N> v, int counter, Deque<Node<N>> stack, Deque<Node<N>> frames) {
        v.index = counter;
        v.low = counter;
        stack.push(v);
        v.onStack = true;
        frames.push(v);
        return counter + 1;
    }

    /** A node's bookkeeping during the search: its index, its low link, and how many of its edges were followed. */
    private static final class Node<N> {
        final N node;
        List<Node<N>> edges;
        int index = -1;
        int low;
        int next;
        boolean onStack;

        Node(N node) { this.node = node; }
    }
}
