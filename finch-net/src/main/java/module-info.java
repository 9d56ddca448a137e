/**
 * The HTTP words ({@code http-get}, {@code http-request}) and their SPI ({@code NetHost}), with Finch's own binding
 * ({@code LocalNetHost}) over the JDK's sockets and TLS: a {@link dev.finch.vm.word.WordLibrary} of their own, under
 * {@code net.http(URL)} grants.
 */
module finch.net {
    requires transitive finch.host;
    exports dev.finch.net;
    // The word classes: the engine reads their declarations and its generated code calls them.
    exports dev.finch.net.words to finch.vm, finch.core;
    provides dev.finch.vm.word.WordLibrary with dev.finch.net.words.NetLibrary;
}
