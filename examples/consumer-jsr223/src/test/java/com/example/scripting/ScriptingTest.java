package com.example.scripting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import javax.script.Invocable;
import javax.script.ScriptEngine;
import javax.script.ScriptEngineManager;
import javax.script.ScriptException;
import org.junit.jupiter.api.Test;

/** Finch found by name through javax.script, as an application that only knows the JSR-223 API finds it. */
class ScriptingTest {
    @Test
    void finchRunsBehindJavaxScript() throws ScriptException, NoSuchMethodException {
        ScriptEngine finch = new ScriptEngineManager().getEngineByName("finch");
        assertNotNull(finch, "the finch engine is registered");
        finch.put("n", 20);
        assertEquals(42L, finch.eval("(define (twice x) (* 2 x)) (+ (twice n) 2)"));
        assertEquals(14L, ((Invocable) finch).invokeFunction("twice", 7L));
        ScriptException e = assertThrows(ScriptException.class, () -> finch.eval("(+ 1 \"two\")"));
        assertEquals(1, e.getLineNumber());
    }
}
