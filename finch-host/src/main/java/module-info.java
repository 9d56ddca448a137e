/**
 * The host words and the host-binding SPIs they call (files, processes, models, tools, agents, MCP, the editor), with
 * the local file and process hosts: a {@link dev.finch.vm.word.WordLibrary} the engine finds as a service.
 */
@SuppressWarnings("module") // names modules absent when this one compiles (automatic modules, later in the build)
module finch.host {
    requires transitive finch.vm;
    requires finch.persist;
    requires de.siegmar.fastcsv;
    requires com.cronutils;
    exports dev.finch.host;
    // The word classes and what only they use: the engine reads their declarations and its generated code calls them.
    exports dev.finch.host.words to finch.vm, finch.core, finch.workbooks, finch.mcp, finch.providers, finch.bench;
    provides dev.finch.vm.word.WordLibrary with dev.finch.host.words.HostLibrary;
}
