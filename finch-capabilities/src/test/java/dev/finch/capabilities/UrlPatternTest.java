package dev.finch.capabilities;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** net.http's URL selectors: the one parser and printer, a program's URL reduced to a requirement, and containment. */
class UrlPatternTest {
    private static CapabilitySpec spec(String text) { return CapabilitySpec.parse(text).value(); }

    private static String concrete(String url) { return UrlPattern.concrete(url, Origin.UNKNOWN).value().toString(); }

    @ParameterizedTest
    @ValueSource(strings = {"net.http(https://api.example.com/v1/**)", "net.http(http://127.0.0.1:8080/**,method=GET)", "net.http(**)",
            "net.http(https://*.example.com/)", "net.http(https://*:*/**,method=POST)", "net.http(https://[::1]:8443/a)"})
    void canonicalSpellingsReadBackAsThemselves(String text) {
        assertThat(spec(text).toString()).isEqualTo(text);
        assertThat(spec(spec(text).toString())).isEqualTo(spec(text));
    }

    @Test
    void theDefaultPortAndMethodStarAreNotPrinted() {
        assertThat(spec("net.http(https://a.example:443/x,method=*)").toString()).isEqualTo("net.http(https://a.example/x)");
        assertThat(spec("net.http(http://a.example:80)").toString()).isEqualTo("net.http(http://a.example/)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"net.http(ftp://a.example/)", "net.http(https://A.example/)", "net.http(https://a.example:0/)",
            "net.http(https://a.example:99999/)", "net.http(https://a.example/../x)", "net.http(https://a.example/x,method=FETCH)",
            "net.http(https://a.example/x,GET)", "net.http(a.example)", "net.http", "net.http(https://a_b.example/)"})
    void malformedSelectorsAreRefused(String text) {
        var a = CapabilitySpec.parse(text);
        assertThat(a.isOk()).as(text).isFalse();
        assertThat(a.refusal().orElseThrow().code()).isIn("E-CAP-003", "E-CAP-005");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "https://API.Example.com/v1/items?q=1#frag | https://api.example.com/v1/items",
            "https://api.example.com:443/v1/./a/../b/ | https://api.example.com/v1/b",
            "http://127.0.0.1:8080 | http://127.0.0.1:8080/",
            "https://a.example/x*y,(z)$1 | https://a.example/x%2Ay%2C%28z%29%241",
            "https://a.example//double//slash | https://a.example/double/slash",
            "https://xn--bcher-kva.example/ | https://xn--bcher-kva.example/",
            "https://bücher.example/ | https://xn--bcher-kva.example/"})
    void aProgramsUrlIsReducedToWhatAuthorityIsDecidedOn(String url, String requirement) {
        assertThat(concrete(url)).isEqualTo(requirement);
        // Always a concrete requirement: it reads back as itself and contains only itself among its neighbours.
        assertThat(spec("net.http(" + requirement + ",method=GET)").toString()).isEqualTo("net.http(" + requirement + ",method=GET)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://a.example/", "https://user:pw@a.example/", "/relative", "https://", "https://a.example/../../etc", "not a url"})
    void urlsTheBoundaryCannotNameAreRefused(String url) {
        assertThat(UrlPattern.concrete(url, Origin.UNKNOWN).isOk()).as(url).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "net.http(https://api.example.com/v1/**) | net.http(https://api.example.com/v1/items,method=GET) | true",
            "net.http(https://api.example.com/v1/**) | net.http(https://api.example.com/v2/items,method=GET) | false",
            "net.http(https://api.example.com/v1/**) | net.http(http://api.example.com/v1/items,method=GET) | false",
            "net.http(https://api.example.com/v1/**) | net.http(https://api.example.com:8443/v1/items,method=GET) | false",
            "net.http(https://api.example.com:*/v1/**) | net.http(https://api.example.com:8443/v1/items,method=GET) | true",
            "net.http(https://*.example.com/**) | net.http(https://api.example.com/x,method=GET) | true",
            "net.http(https://*.example.com/**) | net.http(https://example.com/x,method=GET) | false",
            "net.http(https://*.example.com/**) | net.http(https://evil-example.com/x,method=GET) | false",
            "net.http(https://*.example.com/**) | net.http(https://*.a.example.com/**) | true",
            "net.http(https://*/**,method=GET) | net.http(https://a.example/x,method=POST) | false",
            "net.http(https://*/**,method=GET) | net.http(https://a.example/x,method=GET) | true",
            "net.http(**) | net.http(http://127.0.0.1:8080/x,method=DELETE) | true",
            "net.http(https://*/**) | net.http(**,method=GET) | false",
            "net.http(https://a.example/x) | net.http(https://a.example/x/y,method=GET) | false"})
    void containment(String grant, String requirement, boolean contains) {
        assertThat(spec(grant).contains(spec(requirement))).as("%s ⊇ %s", grant, requirement).isEqualTo(contains);
    }

    @Test
    void exactHostsAreTheOnlyOnesThatMayReachPrivateAddresses() {
        assertThat(((CapabilitySpec.NetHttp) spec("net.http(http://localhost:8080/**)")).url().exactHost()).isTrue();
        assertThat(((CapabilitySpec.NetHttp) spec("net.http(http://*.local/**)")).url().exactHost()).isFalse();
        assertThat(((CapabilitySpec.NetHttp) spec("net.http(**)")).url().exactHost()).isFalse();
    }
}
