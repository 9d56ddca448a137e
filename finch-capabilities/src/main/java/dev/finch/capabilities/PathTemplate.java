package dev.finch.capabilities;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;

import java.util.ArrayList;
import java.util.List;

/**
 * An argument-dependent file requirement (contract: "a restricted template AST over immutable refined path values,
 * never string replacement"): {@code access(${root}/prefix…/<path>/suffix…)} where the hole {@code <path>} stands for
 * the segments of a refined path argument under the same root, with a conservative upper bound such as
 * {@code fs.write(${workspace}/reports/**)}. The verifier previews {@link #bound()}; a call site with a known argument
 * gets the concrete requirement from {@link #instantiate(ConcretePath)}, refused when not provably inside the bound.
 */
public final class PathTemplate {
    private final CapabilityKind access;
    private final Root root;
    private final List<String> prefix;
    private final List<String> suffix;
    private final PathPattern bound;

    private PathTemplate(CapabilityKind access, Root root, List<String> prefix, List<String> suffix, PathPattern bound) {
        this.access = access;
        this.root = root;
        this.prefix = List.copyOf(prefix);
        this.suffix = List.copyOf(suffix);
        this.bound = bound;
    }

    /**
     * A template from its parts. {@code access} is {@link CapabilityKind#FS_READ} or {@link CapabilityKind#FS_WRITE};
     * prefix and suffix are literal names; the bound must be under the same root.
     */
    public static Attempt<PathTemplate> of(CapabilityKind access, Root root, List<String> prefix, List<String> suffix, PathPattern bound) {
        if (access != CapabilityKind.FS_READ && access != CapabilityKind.FS_WRITE)
            return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(Origin.UNKNOWN,
                    "a path template is for fs.read or fs.write", "fs.read or fs.write", access.canonicalName()));
        for (List<String> part : List.of(prefix, suffix))
            for (String seg : part) {
                Diagnostic bad = PathSyntax.checkSegment(seg, false, Origin.UNKNOWN, seg);
                if (bad != null) return Attempt.refused(bad);
            }
        if (bound.root() != root)
            return Attempt.refused(CapabilityCode.TEMPLATE_ROOT_MISMATCH.at(Origin.UNKNOWN,
                    "a template's bound must be under the template's root", root.prefix(), bound.root().prefix()));
        return Attempt.ok(new PathTemplate(access, root, prefix, suffix, bound));
    }

    /** {@code fs.read} or {@code fs.write}. */
    public CapabilityKind access() { return access; }

    /** The root of the template, its bound and its arguments. */
    public Root root() { return root; }

    /** Literal names before the hole. */
    public List<String> prefix() { return prefix; }

    /** Literal names after the hole. */
    public List<String> suffix() { return suffix; }

    /** The bound as a selector. */
    public PathPattern boundPattern() { return bound; }

    /** The conservative static requirement, e.g. {@code fs.read(${workspace}/reports/**)}: what a preview shows. */
    public Capability bound() { return spec(bound).toCapability(); }

    /**
     * Every path the template can produce for an arbitrary argument, as a selector: {@code ${root}/prefix/**}{@code /suffix}.
     */
    public PathPattern shape() {
        return PathPattern.of(root, SegmentPattern.ofValidated(prefix)
                .concat(SegmentPattern.ofValidated(List.of("**")))
                .concat(SegmentPattern.ofValidated(suffix)));
    }

    /**
     * True when the bound provably holds every possible instantiation, so no argument can ever be refused; otherwise
     * only arguments checked by {@link #instantiate} (at verification or at the host boundary) may pass.
     */
    public boolean boundCoversEveryArgument() { return bound.contains(shape()); }

    /** The concrete requirement for a known argument; refused when the argument is under another root or outside the bound. */
    public Attempt<Capability> instantiate(ConcretePath argument) {
        if (argument.root() != root) return Attempt.refused(rootMismatch(argument.root()));
        List<String> segments = new ArrayList<>(prefix);
        segments.addAll(argument.segments());
        segments.addAll(suffix);
        return ConcretePath.checkedLength(root, segments).flatMap(path -> {
            if (!bound.matches(path))
                return Attempt.refused(CapabilityCode.TEMPLATE_OUTSIDE_BOUND.at(Origin.UNKNOWN,
                        "the path is outside the template's bound", bound.toString(), path.toString()));
            return Attempt.ok(spec(PathPattern.of(path)).toCapability());
        });
    }

    /**
     * The requirement for an argument known only as a selector (a refined path whose value is not yet known but whose
     * selector is); refused unless the bound provably contains every resulting path.
     */
    public Attempt<Capability> instantiate(PathPattern argument) {
        if (argument.root() != root) return Attempt.refused(rootMismatch(argument.root()));
        PathPattern result = PathPattern.of(root, SegmentPattern.ofValidated(prefix)
                .concat(argument.segments()).concat(SegmentPattern.ofValidated(suffix)));
        if (!bound.contains(result))
            return Attempt.refused(CapabilityCode.TEMPLATE_OUTSIDE_BOUND.at(Origin.UNKNOWN,
                    "cannot prove the selector stays inside the template's bound", bound.toString(), result.toString()));
        return Attempt.ok(spec(result).toCapability());
    }

    private Diagnostic rootMismatch(Root found) {
        return CapabilityCode.TEMPLATE_ROOT_MISMATCH.at(Origin.UNKNOWN,
                "the path argument is under another root than the template", root.prefix(), found.prefix());
    }

    private CapabilitySpec spec(PathPattern p) {
        return access == CapabilityKind.FS_READ ? new CapabilitySpec.FsRead(p) : new CapabilitySpec.FsWrite(p);
    }

    /** E.g. {@code fs.write(${workspace}/reports/<path>) within fs.write(${workspace}/reports/**)}. */
    @Override public String toString() {
        List<String> parts = new ArrayList<>(prefix);
        parts.add("<path>");
        parts.addAll(suffix);
        return access + "(" + root.prefix() + "/" + String.join("/", parts) + ") within " + spec(bound);
    }
}
