package dev.finch.verifier;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.vocab.RequirementTemplate;
import java.util.Collection;

/**
 * Whether a declared capability set covers an inferred requirement: the same capability, or one whose arguments
 * are scope patterns containing the requirement's ({@code fs.read(${workspace}/**)} covers
 * {@code fs.read(${workspace}/src/a.txt)}), decided by {@code finch-capabilities}' sound containment. A
 * declaration that does not parse is refused separately (E-VERIFY-031) and covers nothing here.
 */
final class EffectCoverage {
    private EffectCoverage() { }

    static boolean covers(Collection<Capability> declared, Capability needed) {
        for (Capability d : declared) if (covers(d, needed)) return true;
        return false;
    }

    /**
     * Whether {@code d} covers {@code n}. A template over a definition's parameters ({@code fs.read(${workspace}/$0)})
     * is covered by the same template, by one over the same parameter's whole subtree ({@code …/$0/**}), or by a
     * capability that covers its bound; a declared template covers only such templates — never a concrete path,
     * which it does not name.
     */
    static boolean covers(Capability d, Capability n) {
        if (d.equals(n)) return true;
        boolean dt = RequirementTemplate.mentionsArgument(d);
        boolean nt = RequirementTemplate.mentionsArgument(n);
        if (dt) return nt && subtreeOf(d, n);
        if (nt) return covers(d, RequirementTemplate.boundOf(n));
        // Sound containment from finch-capabilities where both parse (glob-in-glob inclusion, keyed parameters).
        var ds = dev.finch.capabilities.CapabilitySpec.of(d);
        var ns = dev.finch.capabilities.CapabilitySpec.of(n);
        if (ds.isOk() && ns.isOk()) return ds.value().contains(ns.value());
        if (!ds.isOk()) return false;
        if (!d.name().equals(n.name()) || d.args().size() != n.args().size()) return false;
        for (int i = 0; i < d.args().size(); i++) if (!argCovers(d.args().get(i), n.args().get(i))) return false;
        return true;
    }

    /** {@code d} is {@code n} with some path slots widened to their subtree ({@code ${r}/$0/**} covers {@code ${r}/$0}). */
    private static boolean subtreeOf(Capability d, Capability n) {
        if (!d.name().equals(n.name()) || d.args().size() != n.args().size()) return false;
        for (int i = 0; i < d.args().size(); i++) {
            String a = d.args().get(i), b = n.args().get(i);
            if (!a.equals(b) && !(a.endsWith("/**") && (a.substring(0, a.length() - 3).equals(b) || b.startsWith(a.substring(0, a.length() - 2))))) return false;
        }
        return true;
    }

    private static boolean argCovers(String d, String n) {
        if (d.equals(n)) return true;
        int de = d.indexOf('='), ne = n.indexOf('=');
        if (de > 0 && ne > 0) {
            return d.substring(0, de).strip().equals(n.substring(0, ne).strip()) && argCovers(d.substring(de + 1).strip(), n.substring(ne + 1).strip());
        }
        if (d.equals("**") || d.equals("*")) return true;
        if (d.endsWith("/**")) {
            String prefix = d.substring(0, d.length() - 2);
            return n.startsWith(prefix) && !n.substring(prefix.length()).contains("..");
        }
        return false;
    }
}
