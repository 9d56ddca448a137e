/**
 * The host words and the host-binding SPIs they call (files, processes, models, tools, agents, MCP, the editor), with
 * the local file and process hosts: a {@link dev.finch.vm.word.WordLibrary} the engine finds as a service.
 */
module finch.host {
    requires transitive finch.vm;
    requires de.siegmar.fastcsv;
    requires com.cronutils;
    exports dev.finch.host;
    provides dev.finch.vm.word.WordLibrary with dev.finch.host.HostLibrary;
}
