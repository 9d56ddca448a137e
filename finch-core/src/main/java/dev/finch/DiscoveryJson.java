package dev.finch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.vocab.SyntaxSpec;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import java.util.List;

/**
 * The JSON forms of the discovery results (snake_case, like the D4 outcome): what the tool surface returns to a
 * model and what {@code finch vocabulary --json} prints. Built as trees so the key order is the protocol's.
 */
public final class DiscoveryJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private DiscoveryJson() { }

    /** {@code get_vm_state}: protocol, session, revisions, stack (bottom to top), definitions, constants. */
    public static ObjectNode tree(VmStateReport r) {
        ObjectNode o = F.objectNode();
        o.put("protocol", Outcome.PROTOCOL);
        o.put("session_id", r.sessionId());
        o.put("vm_revision", r.vmRevision());
        o.put("manifest_generation", r.manifestGeneration());
        ArrayNode stack = o.putArray("stack");
        for (StackEntry e : r.stack()) stack.addObject().put("type", e.type()).put("display", e.display());
        ArrayNode defs = o.putArray("definitions");
        for (VmStateReport.DefinitionEntry d : r.definitions()) defs.addObject().put("name", d.name()).put("signature", d.signature());
        ArrayNode consts = o.putArray("constants");
        for (VmStateReport.ConstantEntry c : r.constants()) {
            consts.addObject().put("name", c.name()).put("type", c.type()).put("display", c.display());
        }
        return o;
    }

    /** {@code inspect_word}: the fields of the variant; syntax has {@code form} and no {@code signature} at all. */
    public static ObjectNode tree(WordInfo info) {
        ObjectNode o = F.objectNode();
        o.put("name", info.name());
        o.put("kind", info.kind().spelling());
        if (info instanceof WordInfo.CoreWord w) {
            o.put("signature", w.signature());
            ArrayNode ov = o.putArray("overloads");
            w.overloads().forEach(ov::add);
            o.put("category", w.category());
            o.put("doc", w.doc());
            o.put("special", w.special());
            if (!w.forms().isEmpty()) forms(o.putArray("forms"), w.forms());
        } else if (info instanceof WordInfo.Definition d) {
            o.put("signature", d.signature());
            if (d.source().isPresent()) o.put("source", d.source().get());
            else o.putNull("source");
            o.put("source_language", "forth");
        } else if (info instanceof WordInfo.Constant c) {
            o.put("type", c.type());
            o.put("display", c.display());
        } else if (info instanceof WordInfo.NamedType t) {
            o.put("type", t.structure());
        } else {
            WordInfo.Syntax s = (WordInfo.Syntax) info;
            ArrayNode langs = o.putArray("languages");
            s.languages().forEach(langs::add);
            o.put("form", s.form());
            o.put("doc", s.doc());
            o.put("example", s.example());
            forms(o.putArray("forms"), s.forms());
        }
        return o;
    }

    /** Each form with its language, shape, meaning and example. */
    private static void forms(ArrayNode into, List<SyntaxSpec> forms) {
        for (SyntaxSpec f : forms) {
            into.addObject().put("language", String.join(", ", f.languages())).put("name", f.name()).put("form", f.form())
                .put("doc", f.doc()).put("example", f.example());
        }
    }

    /** {@code search_word}: the query, the hits (at most {@code limit}) and whether more matched. */
    public static ObjectNode searchTree(String query, List<WordSummary> hits, int limit) {
        ObjectNode o = F.objectNode();
        o.put("query", query);
        ArrayNode a = o.putArray("hits");
        for (WordSummary s : hits.subList(0, Math.min(limit, hits.size()))) a.add(tree(s));
        o.put("truncated", hits.size() > limit);
        return o;
    }

    /** One listing line. */
    public static ObjectNode tree(WordSummary s) {
        ObjectNode o = F.objectNode();
        o.put("name", s.name());
        o.put("kind", s.kind().spelling());
        // Syntax is a form, not a callable: its summary is named "form" so it is never read as a signature.
        o.put(s.kind() == WordKind.SYNTAX ? "form" : s.kind() == WordKind.CONSTANT || s.kind() == WordKind.NAMED_TYPE ? "type" : "signature", s.summary());
        o.put("doc", s.doc());
        return o;
    }

    /** {@code get_language_definition}: the protocol, the detail ({@code primer} or {@code full}) and the definition as one text. */
    public static ObjectNode tree(LanguageDefinition d) {
        ObjectNode o = F.objectNode();
        o.put("protocol", d.protocol());
        o.put("detail", d.detail().spelling());
        o.put("text", d.text());
        return o;
    }

    /**
     * The typed vocabulary in exactly the shape the {@code vm-vocabulary} word returns ({@code words} with name,
     * signature, category, doc; {@code definitions} with name and signature), plus the source syntax, which that
     * word leaves out because it is no value a program can use.
     */
    public static ObjectNode vocabularyTree(Vocabulary vocabulary, VmStateReport state) {
        ObjectNode o = F.objectNode();
        ArrayNode words = o.putArray("words");
        for (WordSpec w : vocabulary.words()) {
            words.addObject().put("name", w.name()).put("signature", w.signatureText())
                 .put("category", Discovery.categoryName(w.category())).put("doc", w.doc());
        }
        ArrayNode defs = o.putArray("definitions");
        for (VmStateReport.DefinitionEntry d : state.definitions()) defs.addObject().put("name", d.name()).put("signature", d.signature());
        ArrayNode syntax = o.putArray("syntax");
        for (SyntaxSpec s : dev.finch.ir.vocab.SourceSyntax.all()) {
            ObjectNode n = syntax.addObject().put("name", s.name());
            ArrayNode langs = n.putArray("languages");
            s.languages().forEach(langs::add);
            n.put("form", s.form()).put("doc", s.doc()).put("example", s.example());
        }
        return o;
    }

    /** Compact JSON text of a tree. */
    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // Trees of strings, numbers and booleans always serialize; a failure is a defect.
            throw new java.io.UncheckedIOException(e);
        }
    }
}
