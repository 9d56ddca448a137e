package dev.finch.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.norman.NormanCode;
import dev.finch.norman.test.TestHarness;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;

/**
 * What {@code finch run FILE.nm --script NAME} prints of each form that ran when the file loaded (its vals and
 * top-level expressions, in file order): in human form, each top-level expression's value on a line of stdout (µNorman's
 * {@code show} text) and each failure, with its place, on stderr; with {@code --json}, one outcome object per form — the
 * run's outcome object ({@link FinchJson}) narrowed to that form: its {@code "form"} (where it is, and a val's name),
 * its status, its value as the stack, and a failure as its diagnostic ({@code E-NORMAN-304}).
 */
final class ScriptRunReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ScriptRunReport() { }

    /**
     * The human form: each top-level expression's value on a line of {@code out}, each one that failed on {@code err}
     * (a failing val has said so already, as it does in every run).
     */
    static void text(TestHarness.ScriptedRun r, PrintStream out, PrintStream err) {
        for (TestHarness.TopLevelForm f : r.forms()) {
            if (f.val().isPresent()) continue;
            if (f.ok()) out.println(f.display());
            else err.println(f.origin() + ": " + failure(f));
        }
    }

    /** One object per form, one a line; the run's own outcome when it stopped before its end. */
    static void json(TestHarness.ScriptedRun r, String sourceId, PrintStream out) {
        if (r.outcome().isEmpty()) {
            // The file did not load: one object, with the diagnostics that stopped it.
            ObjectNode o = JSON.createObjectNode();
            o.put("protocol", Outcome.PROTOCOL);
            o.put("source_id", sourceId);
            o.put("language", "norman");
            o.put("status", "failed");
            o.set("diagnostics", JSON.valueToTree(r.diagnostics().stream().map(d -> diagnostic(d.phase().name().toLowerCase(java.util.Locale.ROOT),
                    d.code(), d.message(), d.origin())).toList()));
            out.println(o);
            return;
        }
        ObjectNode whole = parse(FinchJson.write(r.outcome().get()));
        if (!r.diagnostics().isEmpty() || r.outcome().get().status() != Outcome.Status.COMPLETED) {
            out.println(whole);
            return;
        }
        for (TestHarness.TopLevelForm f : r.forms()) {
            ObjectNode o = whole.deepCopy();
            ObjectNode form = JSON.createObjectNode();
            form.put("source", f.origin().source());
            form.put("line", f.origin().line());
            form.put("column", f.origin().column());
            f.val().ifPresent(v -> form.put("val", v));
            o.set("form", form);
            o.put("status", f.ok() ? "completed" : "failed");
            o.put("output", "");
            o.set("events", JSON.createArrayNode());
            ArrayNode stack = JSON.createArrayNode();
            if (f.ok() && f.val().isEmpty()) stack.addObject().put("type", f.type()).put("display", f.display());
            o.set("stack", stack);
            ArrayNode diagnostics = JSON.createArrayNode();
            if (!f.ok()) diagnostics.add(diagnostic("execute", NormanCode.TOP_LEVEL_FAILED.code(), failure(f), f.origin()));
            o.set("diagnostics", diagnostics);
            out.println(o);
        }
    }

    private static String failure(TestHarness.TopLevelForm f) {
        return f.val().map(v -> "val " + v + " failed, so it is not bound: ").orElse("uncaught failure: ") + f.display();
    }

    private static ObjectNode diagnostic(String phase, String code, String message, dev.finch.ir.diag.Origin at) {
        ObjectNode d = JSON.createObjectNode();
        d.put("phase", phase);
        d.put("code", code);
        d.put("message", message);
        ObjectNode origin = d.putObject("origin");
        origin.put("source", at.source());
        origin.put("line", at.line());
        origin.put("column", at.column());
        d.putNull("expected");
        d.putNull("found");
        return d;
    }

    private static ObjectNode parse(String json) {
        try {
            JsonNode n = JSON.readTree(json);
            return (ObjectNode) n;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
