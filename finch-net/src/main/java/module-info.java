/**
 * The HTTP words ({@code http-get}, {@code http-request}) and their SPI ({@code NetHost}), with Finch's own binding
 * ({@code LocalNetHost}) over the JDK's sockets and TLS: a {@link dev.finch.vm.word.WordLibrary} of their own, under
 * {@code net.http(URL)} grants.
 */
module finch.net {
    requires transitive finch.host;
    exports dev.finch.net;
    provides dev.finch.vm.word.WordLibrary with dev.finch.net.NetLibrary;
}
