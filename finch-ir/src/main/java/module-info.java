/** Finch's typed stack IR: types, instructions, diagnostics, capability syntax and the vocabulary as data. */
module finch.ir {
    exports dev.finch.ir;
    exports dev.finch.ir.cap;
    exports dev.finch.ir.checked;
    exports dev.finch.ir.diag;
    exports dev.finch.ir.instr;
    exports dev.finch.ir.limit;
    exports dev.finch.ir.print;
    exports dev.finch.ir.type;
    exports dev.finch.ir.vocab;
}
