package dev.finch;

import dev.finch.automation.AutomationHost;
import dev.finch.capabilities.Root;
import dev.finch.host.EditorHost;
import dev.finch.host.FileHost;
import dev.finch.host.ProcessHost;
import dev.finch.net.NetHost;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a host fixes when it opens a session: an immutable value, made with {@link #builder()} (or from {@link #DEFAULT}
 * with the {@code with…} methods, each a copy with one thing changed). Its constructor is not public, so a later
 * version can add an option without breaking a caller; {@link #toBuilder()} starts a builder from these options.
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
public final class SessionOptions {
    /** No roots, no grants, local bindings, dispatch in the session. */
    public static final SessionOptions DEFAULT = builder().build();

    private final Map<Root, Path> roots;
    private final List<String> grants;
    private final boolean deferred;
    private final Optional<FileHost> fileHost;
    private final Optional<ProcessHost> processHost;
    private final Optional<EditorHost> editorHost;
    private final Optional<AutomationHost> automationHost;
    private final Optional<NetHost> netHost;

    private SessionOptions(Builder b) {
        Map<Root, Path> r = new EnumMap<>(Root.class);
        r.putAll(b.roots);
        this.roots = Collections.unmodifiableMap(r);
        this.grants = List.copyOf(b.grants);
        this.deferred = b.deferred;
        this.fileHost = Optional.ofNullable(b.fileHost);
        this.processHost = Optional.ofNullable(b.processHost);
        this.editorHost = Optional.ofNullable(b.editorHost);
        this.automationHost = Optional.ofNullable(b.automationHost);
        this.netHost = Optional.ofNullable(b.netHost);
    }

    /** A builder of options: no roots, no grants, no hosts of your own, dispatch in the session. */
    public static Builder builder() { return new Builder(); }

    /** A builder that starts from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.roots.putAll(roots);
        b.grants.addAll(grants);
        b.deferred = deferred;
        b.fileHost = fileHost.orElse(null);
        b.processHost = processHost.orElse(null);
        b.editorHost = editorHost.orElse(null);
        b.automationHost = automationHost.orElse(null);
        b.netHost = netHost.orElse(null);
        return b;
    }

    /** The installed roots, each with its directory. */
    public Map<Root, Path> roots() { return roots; }

    /** The session-scoped grants, in the order given. */
    public List<String> grants() { return grants; }

    /** Whether approved host requests wait for {@link Session#respond} (deferred-host mode). */
    public boolean deferred() { return deferred; }

    /** The file host of these options, if one was given. */
    public Optional<FileHost> fileHost() { return fileHost; }

    /** The process host of these options, if one was given. */
    public Optional<ProcessHost> processHost() { return processHost; }

    /** The editor host of these options, if one was given. */
    public Optional<EditorHost> editorHost() { return editorHost; }

    /** The desktop of these options, if one was given. */
    public Optional<AutomationHost> automationHost() { return automationHost; }

    /** The network host of these options, if one was given. */
    public Optional<NetHost> netHost() { return netHost; }

    /** The workspace root that {@code path} values resolve against, if one is installed. */
    public Optional<Path> workspace() { return root(Root.WORKSPACE); }

    /** The directory installed as {@code root}, if any. */
    public Optional<Path> root(Root root) { return Optional.ofNullable(roots.get(root)); }

    /** These options with {@code dir} as the workspace root (the same as {@code withRoot(Root.WORKSPACE, dir)}). */
    public SessionOptions withWorkspace(Path dir) { return toBuilder().workspace(dir).build(); }

    /**
     * These options with {@code dir} installed as {@code root} (replacing the directory installed before, if any), for
     * example {@code withRoot(Root.PROJECT, repo).withRoot(Root.TASK_OUTPUT, out).withGrant("fs.read(${project}/**)")}.
     * Availability only: it grants nothing.
     */
    public SessionOptions withRoot(Root root, Path dir) { return toBuilder().root(root, dir).build(); }

    /** These options in deferred-host mode (or not). */
    public SessionOptions withDeferredHost(boolean on) { return toBuilder().deferred(on).build(); }

    /** These options with one more grant. */
    public SessionOptions withGrant(String grant) { return toBuilder().grant(grant).build(); }

    /**
     * These options with {@code files} serving the session's file words (after authorization, as always) instead of
     * the builder's or the local file host. It reports the roots it serves itself ({@link FileHost#installed}).
     */
    public SessionOptions withFileHost(FileHost files) { return toBuilder().fileHost(files).build(); }

    /** These options with {@code processes} running the session's {@code process-run} calls (after authorization). */
    public SessionOptions withProcessHost(ProcessHost processes) { return toBuilder().processHost(processes).build(); }

    /** These options with {@code editor} showing the session's proposals ({@code proposal-open}, after authorization). */
    public SessionOptions withEditorHost(EditorHost editor) { return toBuilder().editorHost(editor).build(); }

    /**
     * These options with {@code desktop} as the desktop the {@code automation-*} words observe and drive (each operation
     * after authorization under its own {@code desktop.automate(OP)}); {@link dev.finch.automation.AwtAutomationHost} drives
     * this machine's display with {@code java.awt.Robot}. Installing it grants nothing.
     */
    public SessionOptions withAutomationHost(AutomationHost desktop) { return toBuilder().automationHost(desktop).build(); }

    /**
     * These options with {@code net} sending the session's {@code http-get} and {@code http-request} calls (each after
     * authorization under its concrete {@code net.http(URL,method=M)}); {@link dev.finch.net.LocalNetHost} is Finch's own.
     * Without one the HTTP words fail with {@code E-HOST-013} before anything is asked (in deferred-host mode the
     * embedder answers them). Installing it grants nothing.
     */
    public SessionOptions withNetHost(NetHost net) { return toBuilder().netHost(net).build(); }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionOptions s && roots.equals(s.roots) && grants.equals(s.grants) && deferred == s.deferred
                && fileHost.equals(s.fileHost) && processHost.equals(s.processHost) && editorHost.equals(s.editorHost)
                && automationHost.equals(s.automationHost) && netHost.equals(s.netHost);
    }

    @Override
    public int hashCode() { return Objects.hash(roots, grants, deferred, fileHost, processHost, editorHost, automationHost, netHost); }

    @Override
    public String toString() {
        return "SessionOptions[roots=" + roots + ", grants=" + grants + ", deferred=" + deferred + ", fileHost=" + fileHost
                + ", processHost=" + processHost + ", editorHost=" + editorHost + ", automationHost=" + automationHost + ", netHost=" + netHost + "]";
    }

    /** Builds {@link SessionOptions}; every setter replaces what was set before, {@link #grant} adds one. Not thread-safe. */
    public static final class Builder {
        private final Map<Root, Path> roots = new EnumMap<>(Root.class);
        private final List<String> grants = new ArrayList<>();
        private boolean deferred;
        private FileHost fileHost;
        private ProcessHost processHost;
        private EditorHost editorHost;
        private AutomationHost automationHost;
        private NetHost netHost;

        private Builder() { }

        /** {@code dir} as the workspace root ({@code root(Root.WORKSPACE, dir)}). */
        public Builder workspace(Path dir) { return root(Root.WORKSPACE, dir); }

        /** {@code dir} installed as {@code root}: availability only, it grants nothing. */
        public Builder root(Root root, Path dir) {
            roots.put(Objects.requireNonNull(root, "root"), Objects.requireNonNull(dir, "dir"));
            return this;
        }

        /** One more session-scoped grant, in canonical spelling (parsed when the session opens). */
        public Builder grant(String grant) {
            grants.add(Objects.requireNonNull(grant, "grant"));
            return this;
        }

        /** These grants added, in order. */
        public Builder grants(Collection<String> more) {
            for (String g : Objects.requireNonNull(more, "grants")) grant(g);
            return this;
        }

        /** Deferred-host mode: every approved host request waits for {@link Session#respond}. */
        public Builder deferred(boolean on) {
            deferred = on;
            return this;
        }

        /** The file host serving the session's file words. */
        public Builder fileHost(FileHost files) {
            fileHost = Objects.requireNonNull(files, "files");
            return this;
        }

        /** The process host running the session's {@code process-run} calls. */
        public Builder processHost(ProcessHost processes) {
            processHost = Objects.requireNonNull(processes, "processes");
            return this;
        }

        /** The editor host showing the session's proposals. */
        public Builder editorHost(EditorHost editor) {
            editorHost = Objects.requireNonNull(editor, "editor");
            return this;
        }

        /** The desktop the {@code automation-*} words drive. */
        public Builder automationHost(AutomationHost desktop) {
            automationHost = Objects.requireNonNull(desktop, "desktop");
            return this;
        }

        /** The network host the HTTP words send through. */
        public Builder netHost(NetHost net) {
            netHost = Objects.requireNonNull(net, "net");
            return this;
        }

        /** The options. */
        public SessionOptions build() { return new SessionOptions(this); }
    }
}
