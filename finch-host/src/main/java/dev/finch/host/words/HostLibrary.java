package dev.finch.host.words;

import dev.finch.host.MemoryWrites;
import dev.finch.host.ToolCapability;
import dev.finch.vm.word.WordIndex;
import dev.finch.vm.word.WordLibrary;
import dev.finch.vm.word.Representation;
import java.util.ArrayList;
import java.util.List;

/** The host words (files, processes, streams, models, tools, agents, MCP bindings, proposals), found by the engine as a service. */
public final class HostLibrary implements WordLibrary {
    /** For the service loader. */
    public HostLibrary() { }

    @Override public String name() { return "host"; }

    @Override public WordIndex index() { return HostIndex.INSTANCE; }

    /**
     * The per-run state of open streams and of staged memory writes, the openers that reopen them after a restore, the saved forms of the host
     * values (capabilities, grant resources, agent handles), and the class a {@code capability} holds.
     */
    @Override public List<Object> extensions() {
        List<Object> out = new ArrayList<>();
        out.add(StreamsKind.INSTANCE);
        out.add(MemoryWrites.KIND);
        out.add(StreamOpeners.LINES);
        out.add(StreamOpeners.CSV);
        out.addAll(List.of(HostForms.values()));
        out.add(AgentHandleJson.FORM);
        out.add(new Representation.Named("capability", ToolCapability.class));
        return out;
    }
}
