package dev.finch;

import dev.finch.capabilities.Root;
import dev.finch.host.FileHost;
import dev.finch.host.ProcessHost;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a host fixes when it opens a session: an immutable value, built from {@link #DEFAULT} with the {@code with…}
 * methods.
 *
 * <ul>
 *   <li><b>Roots</b> ({@link #withWorkspace}, {@link #withRoot}): the directories the refined path types resolve in —
 *       {@code path} in the workspace, {@code project-path} in {@code ${project}}, {@code task-output-path} in
 *       {@code ${task.output}}, {@code host-path} in {@code ${host-machine}}. Installing a root is availability, never a
 *       grant (contract, on root&lt;host-machine&gt;, root&lt;project&gt; and root&lt;task.output&gt;): each file
 *       operation still needs its own concrete grant or an approval, a grant on one root never covers another, and a
 *       word over a root that is not installed fails with {@code E-HOST-002} before anything is asked. Install
 *       {@code host-machine} as a narrow directory; {@code /} only after an intentional whole-machine decision.</li>
 *   <li><b>Grants</b> ({@link #withGrant}): session-scoped capability grants in canonical spelling, such as
 *       {@code fs.read(${project}/**)}; parsed when the session opens ({@link Session}), where a malformed one is refused.</li>
 *   <li><b>Deferred-host mode</b> ({@link #withDeferredHost}): every approved host request suspends and waits for the
 *       embedder's {@link Session#respond} instead of being dispatched by the session's bindings.</li>
 *   <li><b>Bindings</b> ({@link #withFileHost}, {@link #withProcessHost}): the file and process hosts the session's
 *       authorized requests are dispatched to. Without one, the session uses the one {@link Finch.Builder#fileHosts} /
 *       {@link Finch.Builder#processHosts} make from these options, else Finch's local ones: a
 *       {@link dev.finch.host.LocalFileHost} over the installed roots (none when no root is installed: file words
 *       then fail with {@code E-HOST-013}) and a {@link dev.finch.host.LocalProcessHost} working in the workspace.
 *       A host of your own decides which roots it serves ({@link FileHost#installed}); the roots here are then only
 *       what the workspace-relative defaults (the process host's working directory) and a factory see. The same
 *       instance serves every session opened with these options, so it must be thread-safe when those sessions run
 *       at once; for a host per session, use the builder's factories.</li>
 *   <li><b>Editor</b> ({@link #withEditorHost}): where {@code proposal-open} shows a proposed program. Without one, a
 *       proposal always waits for the embedder's answer ({@link Session#respond} with a result of type
 *       {@code option<result<string,string>>}), whatever the mode.</li>
 *   <li><b>Desktop</b> ({@link #withAutomationHost}): what the {@code automation-*} words drive. Without one there is
 *       no desktop: {@code automation-availability} answers {@code {"available":false,…}} and the other automation words
 *       fail with {@code E-HOST-013} before anything is asked (in deferred-host mode the embedder answers them).</li>
 *   <li><b>Network</b> ({@link #withNetHost}): what {@code http-get} and {@code http-request} send through. Without one
 *       there is no network (the HTTP words fail with {@code E-HOST-013}); with one, each request still needs its
 *       {@code net.http(URL)} grant or an approval.</li>
 * </ul>
 */
public record SessionOptions(Map<Root, Path> roots, List<String> grants, boolean deferred,
                             Optional<FileHost> fileHost, Optional<ProcessHost> processHost, Optional<dev.finch.host.EditorHost> editorHost,
                             Optional<dev.finch.automation.AutomationHost> automationHost, Optional<dev.finch.net.NetHost> netHost) {
    /** No roots, no grants, local bindings, dispatch in the session. */
    public static final SessionOptions DEFAULT = new SessionOptions(Map.of(), List.of(), false, Optional.empty(), Optional.empty());

    /** Options without a net host. */
    public SessionOptions(Map<Root, Path> roots, List<String> grants, boolean deferred, Optional<FileHost> fileHost, Optional<ProcessHost> processHost,
                          Optional<dev.finch.host.EditorHost> editorHost, Optional<dev.finch.automation.AutomationHost> automationHost) {
        this(roots, grants, deferred, fileHost, processHost, editorHost, automationHost, Optional.empty());
    }

    /** Options without an automation host. */
    public SessionOptions(Map<Root, Path> roots, List<String> grants, boolean deferred, Optional<FileHost> fileHost, Optional<ProcessHost> processHost,
                          Optional<dev.finch.host.EditorHost> editorHost) {
        this(roots, grants, deferred, fileHost, processHost, editorHost, Optional.empty());
    }

    /** Options without an editor host. */
    public SessionOptions(Map<Root, Path> roots, List<String> grants, boolean deferred, Optional<FileHost> fileHost, Optional<ProcessHost> processHost) {
        this(roots, grants, deferred, fileHost, processHost, Optional.empty());
    }

    /** A workspace (or none) and grants, with local bindings; {@code deferred} selects deferred-host mode. */
    public SessionOptions(Optional<Path> workspace, List<String> grants, boolean deferred) {
        this(workspace.map(w -> Map.of(Root.WORKSPACE, w)).orElse(Map.of()), grants, deferred, Optional.empty(), Optional.empty());
    }

    /** A workspace (or none) and grants, with local bindings, dispatching in the session. */
    public SessionOptions(Optional<Path> workspace, List<String> grants) { this(workspace, grants, false); }

    public SessionOptions {
        Objects.requireNonNull(roots, "roots");
        Map<Root, Path> r = new EnumMap<>(Root.class);
        // A loop, not forEach with a lambda: every session's options pass here, the first in a fresh JVM too.
        for (var e : roots.entrySet()) {
            Root root = Objects.requireNonNull(e.getKey(), "root");
            if (e.getValue() == null) throw new NullPointerException("directory of " + root);
            r.put(root, e.getValue());
        }
        roots = Collections.unmodifiableMap(r);
        grants = List.copyOf(grants);
        Objects.requireNonNull(fileHost, "fileHost");
        Objects.requireNonNull(processHost, "processHost");
        Objects.requireNonNull(editorHost, "editorHost");
        Objects.requireNonNull(automationHost, "automationHost");
        Objects.requireNonNull(netHost, "netHost");
    }

    /** The workspace root that {@code path} values resolve against, if one is installed. */
    public Optional<Path> workspace() { return root(Root.WORKSPACE); }

    /** The directory installed as {@code root}, if any. */
    public Optional<Path> root(Root root) { return Optional.ofNullable(roots.get(root)); }

    /** These options with {@code dir} as the workspace root (the same as {@code withRoot(Root.WORKSPACE, dir)}). */
    public SessionOptions withWorkspace(Path dir) { return withRoot(Root.WORKSPACE, dir); }

    /**
     * These options with {@code dir} installed as {@code root} (replacing the directory installed before, if any), for
     * example {@code withRoot(Root.PROJECT, repo).withRoot(Root.TASK_OUTPUT, out).withGrant("fs.read(${project}/**)")}.
     * Availability only: it grants nothing.
     */
    public SessionOptions withRoot(Root root, Path dir) {
        Map<Root, Path> r = new EnumMap<>(Root.class);
        r.putAll(roots);
        r.put(Objects.requireNonNull(root, "root"), Objects.requireNonNull(dir, "dir"));
        return new SessionOptions(r, grants, deferred, fileHost, processHost, editorHost, automationHost, netHost);
    }

    /** These options in deferred-host mode (or not). */
    public SessionOptions withDeferredHost(boolean on) { return new SessionOptions(roots, grants, on, fileHost, processHost, editorHost, automationHost, netHost); }

    /** These options with one more grant. */
    public SessionOptions withGrant(String grant) {
        List<String> g = new ArrayList<>(grants);
        g.add(Objects.requireNonNull(grant, "grant"));
        return new SessionOptions(roots, g, deferred, fileHost, processHost, editorHost, automationHost, netHost);
    }

    /**
     * These options with {@code files} serving the session's file words (after authorization, as always) instead of
     * the builder's or the local file host. It reports the roots it serves itself ({@link FileHost#installed}).
     */
    public SessionOptions withFileHost(FileHost files) {
        return new SessionOptions(roots, grants, deferred, Optional.of(Objects.requireNonNull(files, "files")), processHost, editorHost, automationHost, netHost);
    }

    /** These options with {@code processes} running the session's {@code process-run} calls (after authorization). */
    public SessionOptions withProcessHost(ProcessHost processes) {
        return new SessionOptions(roots, grants, deferred, fileHost, Optional.of(Objects.requireNonNull(processes, "processes")), editorHost, automationHost, netHost);
    }

    /** These options with {@code editor} showing the session's proposals ({@code proposal-open}, after authorization). */
    public SessionOptions withEditorHost(dev.finch.host.EditorHost editor) {
        return new SessionOptions(roots, grants, deferred, fileHost, processHost, Optional.of(Objects.requireNonNull(editor, "editor")), automationHost, netHost);
    }

    /**
     * These options with {@code desktop} as the desktop the {@code automation-*} words observe and drive (each operation
     * after authorization under its own {@code desktop.automate(OP)}); {@link dev.finch.automation.AwtAutomationHost} drives
     * this machine's display with {@code java.awt.Robot}. Installing it grants nothing.
     */
    public SessionOptions withAutomationHost(dev.finch.automation.AutomationHost desktop) {
        return new SessionOptions(roots, grants, deferred, fileHost, processHost, editorHost, Optional.of(Objects.requireNonNull(desktop, "desktop")), netHost);
    }

    /**
     * These options with {@code net} sending the session's {@code http-get} and {@code http-request} calls (each after
     * authorization under its concrete {@code net.http(URL,method=M)}); {@link dev.finch.net.LocalNetHost} is Finch's own.
     * Without one the HTTP words fail with {@code E-HOST-013} before anything is asked (in deferred-host mode the
     * embedder answers them). Installing it grants nothing.
     */
    public SessionOptions withNetHost(dev.finch.net.NetHost net) {
        return new SessionOptions(roots, grants, deferred, fileHost, processHost, editorHost, automationHost, Optional.of(Objects.requireNonNull(net, "net")));
    }
}
