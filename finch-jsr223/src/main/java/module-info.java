/** Finch behind javax.script: the finch, finch-lisp, finch-forth and finch-norman engines. */
module finch.jsr223 {
    requires transitive finch.core;
    requires transitive java.scripting;
    exports dev.finch.jsr223;
    provides javax.script.ScriptEngineFactory with dev.finch.jsr223.FinchScriptEngineFactory, dev.finch.jsr223.FinchScriptEngineFactory.Lisp,
            dev.finch.jsr223.FinchScriptEngineFactory.Forth, dev.finch.jsr223.FinchScriptEngineFactory.Norman;
}
