package dev.finch.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.host.words.McpBindings;
import dev.finch.host.McpTool;
import org.junit.jupiter.api.Test;

/** The one rule from tool names to words, and from schemas to types (docs/mcp.md). */
class McpBindingsTest {
    private static JsonNode json(String text) throws Exception { return McpClients.JSON.readTree(text); }

    @Test
    void namesMapByOneRule() {
        assertThat(McpBindings.wordName("github", "create_issue")).isEqualTo("mcp.github.create_issue");
        assertThat(McpBindings.wordName("my.docs", "files/read text")).isEqualTo("mcp.my_docs.files_read_text");
        assertThat(McpBindings.wordName("a-b", "x-1")).isEqualTo("mcp.a-b.x-1");
    }

    @Test
    void admissibleSchemasBecomeTypes() throws Exception {
        assertThat(McpBindings.typeOf(json("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"},\"n\":{\"type\":\"integer\"},"
                + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"w\":{\"type\":\"number\"},\"on\":{\"type\":\"boolean\"}},\"required\":[\"q\",\"tags\"]}"))
                .map(Object::toString)).contains("record{n:option<int>,on:option<bool>,q:string,tags:list<string>,w:option<float>}");
        assertThat(McpBindings.typeOf(json("{\"type\":\"object\"}")).map(Object::toString)).contains("record{}");
        // Shapes Finch does not type: the word takes json.
        for (String bad : new String[] {"{\"type\":\"object\",\"properties\":{\"v\":{\"type\":[\"string\",\"null\"]}}}",
                "{\"type\":\"object\",\"properties\":{\"v\":{\"$ref\":\"#/defs/x\"}}}",
                "{\"type\":\"object\",\"properties\":{\"first name\":{\"type\":\"string\"}}}",
                "{\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"array\"}}}"}) {
            assertThat(McpBindings.typeOf(json(bad))).as(bad).isEmpty();
            assertThat(McpBindings.signature(new McpTool("s", "t", "", json(bad), null)).toString()).isEqualTo("json -> result<json,string> ! {mcp.call(s,t)}");
        }
    }

    @Test
    void theSchemaHashIgnoresKeyOrderButNotContent() throws Exception {
        String a = McpBindings.schemaHash(new McpTool("s", "t", "", json("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}"), null));
        String b = McpBindings.schemaHash(new McpTool("s", "t", "", json("{\"properties\":{\"a\":{\"type\":\"string\"}},\"type\":\"object\"}"), null));
        String c = McpBindings.schemaHash(new McpTool("s", "t", "", json("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}}}"), null));
        assertThat(a).isEqualTo(b).isNotEqualTo(c).hasSize(64);
    }

    @Test
    void aToolWhoseInputIsNotAnObjectOrWhoseNameNoGrantSpellsHasNoWord() throws Exception {
        assertThat(McpBindings.publishable(new McpTool("s", "t", "", json("{\"type\":\"string\"}"), null))).isFalse();
        assertThat(McpBindings.publishable(new McpTool("s", "a b", "", json("{\"type\":\"object\"}"), null))).isFalse();
        assertThat(McpBindings.publishable(new McpTool("s", "a.b", "", json("{\"type\":\"object\"}"), null))).isTrue();
    }
}
