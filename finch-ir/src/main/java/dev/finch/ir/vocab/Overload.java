package dev.finch.ir.vocab;

import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One overload of a word: a stable id (what a verified call records and the VM binds its implementation to; never a
 * position), its signature, and what the verifier needs to instantiate its capability requirement at a call site.
 *
 * @param id the stable id, unique across the vocabulary ({@code add-int}, {@code string-split})
 * @param signature the typed signature; its effects are the conservative bound of the requirement
 * @param requires the argument-dependent requirement, when the bound depends on an argument
 * @param refines true when output 0 is a refinement of literal argument 0 (a refined path whose root is the output
 *        type's, or a name that later templates read, like a tool grant's name)
 */
public record Overload(String id, Type.Fn signature, Optional<RequirementTemplate> requires, boolean refines) {
    public Overload {
        if (id == null || id.isBlank()) throw new IllegalArgumentException("an overload needs an id");
        java.util.Objects.requireNonNull(signature, "signature");
        java.util.Objects.requireNonNull(requires, "requires");
    }

    /** A pure or bounded overload with no template. */
    public static Overload of(String id, Type.Fn signature) { return new Overload(id, signature, Optional.empty(), false); }

    /**
     * When the signature is a pure permutation of its inputs ({@code a b -> b a}: distinct type variables in, some of
     * them out, no effects or yields), the input index of each output. By parametricity such a word can only move its
     * inputs, so what is known of an input is known of the output it becomes.
     */
    public Optional<int[]> permutation() {
        Type.Fn f = signature;
        if (!f.effects().isEmpty() || f.yields().isPresent()) return Optional.empty();
        List<String> ins = new ArrayList<>();
        for (Type t : f.ins()) {
            if (!(t instanceof Type.Var v) || ins.contains(v.name())) return Optional.empty();
            ins.add(v.name());
        }
        int[] out = new int[f.outs().size()];
        for (int i = 0; i < out.length; i++) {
            if (!(f.outs().get(i) instanceof Type.Var v) || !ins.contains(v.name())) return Optional.empty();
            out[i] = ins.indexOf(v.name());
        }
        return Optional.of(out);
    }

    /** True when a call may suspend the run (see {@link WordSpec#maySuspend}). */
    public boolean maySuspend() { return WordSpec.maySuspend(signature); }

    @Override public String toString() { return id + ": " + signature; }
}
