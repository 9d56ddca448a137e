package dev.finch.vm.host;

import dev.finch.vm.word.Representation;
import java.util.ArrayList;
import java.util.List;

/**
 * What the host word library gives the engine besides its words: the per-run state of its open streams, the openers
 * that reopen them after a restore, the saved forms of its values (capabilities, grant resources, agent handles), and
 * the class that holds a {@code capability}.
 */
public final class HostExtensions {
    private HostExtensions() { }

    public static List<Object> all() {
        List<Object> out = new ArrayList<>();
        out.add(RunStreams.KIND);
        out.add(HostWords.LINES);
        out.add(HostWords.CSV);
        out.add(WorkbookWords.WORKBOOK);
        out.addAll(List.of(HostForms.values()));
        out.add(AgentHandleJson.FORM);
        out.add(new Representation.Named("capability", ToolCapability.class));
        return out;
    }
}
