package dev.finch.vm.compile;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.Node;
import java.util.ArrayList;
import java.util.List;

/** The nested blocks of a node (closure bodies excluded: they compile to their own methods). */
final class Blocks {
    private Blocks() { }

    static List<CheckedBlock> children(Node n) {
        List<CheckedBlock> out = new ArrayList<>();
        if (n instanceof Checked.IfNode x) { out.add(x.then()); out.add(x.otherwise()); }
        else if (n instanceof Checked.IfSomeNode x) { out.add(x.some()); out.add(x.none()); }
        else if (n instanceof Checked.IfOkNode x) { out.add(x.ok()); out.add(x.err()); }
        else if (n instanceof Checked.LoopNode x) { out.add(x.test()); out.add(x.body()); }
        else if (n instanceof Checked.UntilNode x) out.add(x.body());
        else if (n instanceof Checked.CaseNode x) { x.arms().forEach(a -> out.add(a.body())); x.otherwise().ifPresent(out::add); }
        else if (n instanceof Checked.ListNode x) out.add(x.elements());
        else if (n instanceof Checked.MapNode x) out.add(x.entries());
        else if (n instanceof Checked.RecordNode x) out.addAll(x.values());
        return out;
    }
}
