package dev.finch.vm.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.vm.OutputEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The one JSON form of {@link OutputEvent}s, for outcomes ({@code "events"}) and saved continuations:
 * {@code {"kind":"say","text":…}}, {@code {"kind":"open","handle":1,"label":…}}, {@code {"kind":"replace","handle":1,"text":…}},
 * {@code {"kind":"progress","handle":1,"done":3,"total":10}}, {@code {"kind":"close","handle":1}}.
 */
public final class OutputEventJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private OutputEventJson() { }

    /** {@code e} as a JSON object. */
    public static ObjectNode encode(OutputEvent e) {
        ObjectNode o = F.objectNode();
        o.put("kind", e.kind().spelling());
        switch (e.kind()) {
            case SAY -> o.put("text", ((OutputEvent.Say) e).text());
            case OPEN -> o.put("handle", ((OutputEvent.Open) e).handle()).put("label", ((OutputEvent.Open) e).label());
            case REPLACE -> o.put("handle", ((OutputEvent.Replace) e).handle()).put("text", ((OutputEvent.Replace) e).text());
            case PROGRESS -> {
                OutputEvent.Progress p = (OutputEvent.Progress) e;
                o.put("handle", p.handle()).put("done", p.done()).put("total", p.total());
            }
            case CLOSE -> o.put("handle", ((OutputEvent.Close) e).handle());
        }
        return o;
    }

    /** {@code events} as a JSON array. */
    public static ArrayNode encode(List<OutputEvent> events) {
        ArrayNode a = F.arrayNode();
        for (OutputEvent e : events) a.add(encode(e));
        return a;
    }

    /** The events of a JSON array written by {@link #encode(List)}; {@link IllegalArgumentException} when malformed. */
    public static List<OutputEvent> decode(JsonNode array) {
        if (array == null || !array.isArray()) throw new IllegalArgumentException("events must be an array");
        List<OutputEvent> out = new ArrayList<>();
        for (JsonNode n : array) {
            String kind = n.path("kind").asText();
            out.add(switch (kind) {
                case "say" -> new OutputEvent.Say(text(n, "text"));
                case "open" -> new OutputEvent.Open(n.path("handle").asLong(), text(n, "label"));
                case "replace" -> new OutputEvent.Replace(n.path("handle").asLong(), text(n, "text"));
                case "progress" -> new OutputEvent.Progress(n.path("handle").asLong(), n.path("done").asLong(), n.path("total").asLong());
                case "close" -> new OutputEvent.Close(n.path("handle").asLong());
                default -> throw new IllegalArgumentException("unknown output event kind '" + kind + "'");
            });
        }
        return out;
    }

    private static String text(JsonNode n, String field) {
        JsonNode t = n.get(field);
        if (t == null || !t.isTextual()) throw new IllegalArgumentException("an output event needs a text field '" + field + "'");
        return t.asText();
    }
}
