/** Finch's typed stack IR: types, instructions, diagnostics, capability syntax and the vocabulary as data. */
@SuppressWarnings("module") // names modules absent when this one compiles (automatic modules, later in the build)
module finch.ir {
    exports dev.finch.ir;
    exports dev.finch.ir.cap;
    exports dev.finch.ir.checked to finch.verifier, finch.values, finch.vm, finch.persist, finch.forth, finch.lisp, finch.norman, finch.core, finch.norman.test, finch.bench;
    exports dev.finch.ir.diag;
    exports dev.finch.ir.instr to finch.verifier, finch.vm, finch.persist, finch.forth, finch.lisp, finch.norman, finch.core, finch.bench;
    exports dev.finch.ir.limit;
    exports dev.finch.ir.print to finch.vm, finch.persist, finch.core, finch.forth;
    exports dev.finch.ir.type;
    exports dev.finch.ir.vocab;
}
