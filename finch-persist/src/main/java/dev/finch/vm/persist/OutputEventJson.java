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

    /**
     * A recorder's exact state ({@link dev.finch.vm.OutputRecorder.State}): its entries (say entries as
     * {@code {"say_to":end}}, handle events as above), whether say text follows them, the coalescing slots since the last
     * say/open/close, the open handles with their labels, and the last handle's number.
     */
    public static ObjectNode encodeRecorder(dev.finch.vm.OutputRecorder.State state) {
        ObjectNode o = F.objectNode();
        ArrayNode entries = o.putArray("entries");
        for (dev.finch.vm.OutputLog.Entry e : state.log().entries()) {
            if (e instanceof dev.finch.vm.OutputLog.SayUpTo s) entries.addObject().put("say_to", s.end());
            else entries.add(encode(((dev.finch.vm.OutputLog.Handle) e).event()));
        }
        o.put("say_open", state.sayOpen());
        ArrayNode segment = o.putArray("segment");
        new java.util.TreeMap<>(state.segment()).forEach((slot, at) -> segment.addArray().add(slot).add(at));
        ArrayNode open = o.putArray("open");
        state.open().forEach((id, label) -> open.addArray().add(id).add(label));
        o.put("last_handle", state.lastHandle());
        return o;
    }

    /** The state {@link #encodeRecorder} wrote; {@link IllegalArgumentException} when malformed. */
    public static dev.finch.vm.OutputRecorder.State decodeRecorder(JsonNode o) {
        if (o == null || !o.isObject()) throw new IllegalArgumentException("the output record must be an object");
        List<dev.finch.vm.OutputLog.Entry> entries = new ArrayList<>();
        for (JsonNode e : o.path("entries")) {
            if (e.has("say_to")) entries.add(new dev.finch.vm.OutputLog.SayUpTo(e.get("say_to").asInt()));
            else {
                OutputEvent ev = decode(F.arrayNode().add(e)).get(0);
                if (ev instanceof OutputEvent.Say) throw new IllegalArgumentException("a say event in the output record");
                entries.add(new dev.finch.vm.OutputLog.Handle(ev));
            }
        }
        java.util.Map<Long, Integer> segment = new java.util.HashMap<>();
        for (JsonNode s : o.path("segment")) segment.put(s.get(0).asLong(), s.get(1).asInt());
        java.util.Map<Long, String> open = new java.util.LinkedHashMap<>();
        for (JsonNode s : o.path("open")) open.put(s.get(0).asLong(), s.get(1).asText());
        return new dev.finch.vm.OutputRecorder.State(dev.finch.vm.OutputLog.ofEntries(entries), o.path("say_open").asBoolean(),
                segment, open, o.path("last_handle").asLong());
    }

    private static String text(JsonNode n, String field) {
        JsonNode t = n.get(field);
        if (t == null || !t.isTextual()) throw new IllegalArgumentException("an output event needs a text field '" + field + "'");
        return t.asText();
    }
}
