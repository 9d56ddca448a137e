package dev.finch.norman.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.diag.Origin;
import dev.finch.norman.Askable;
import dev.finch.norman.SiteKey;
import dev.finch.host.ToolCapability;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.VariantValue;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The public helper a tool host builds its call results with: one definition, shared with the scripted world. */
class ToolResultsTest {
    static final ToolCapability WEB = new ToolCapability("web", 0);
    static final Origin O = Origin.UNKNOWN;

    static String key(Askable type) { return SiteKey.call(type).spell(); }

    static String failure(Object r) {
        ResultValue v = (ResultValue) r;
        assertThat(v.isOk()).as("a failure").isFalse();
        VariantValue f = (VariantValue) v.value();
        return f.tag() + (f.payload() instanceof RecordValue rec ? " " + rec.get(0) : "");
    }

    static Object ok(Object r) {
        ResultValue v = (ResultValue) r;
        assertThat(v.isOk()).as("ok").isTrue();
        return v.value();
    }

    @Test
    void aDeclaredTextIsTakenVerbatimWithinItsBound() {
        assertThat(ok(ToolResults.typed(WEB, "get", key(Askable.text()), "{not json", O))).isEqualTo("{not json");
        String bounded = key(new Askable.Text(OptionalLong.of(4)));
        assertThat(ok(ToolResults.typed(WEB, "get", bounded, "four", O))).isEqualTo("four");
        assertThat(failure(ToolResults.typed(WEB, "get", bounded, "fiver", O))).isEqualTo("Invalid fiver");
    }

    @Test
    void anyOtherTypeIsReadAsJsonAndValidated() {
        assertThat(ok(ToolResults.typed(WEB, "temp", key(new Askable.Num()), "21.5", O))).isEqualTo(21.5);
        assertThat(failure(ToolResults.typed(WEB, "temp", key(new Askable.Num()), "warm", O))).isEqualTo("Invalid warm");
        Askable reading = new Askable.Record("Reading", Map.of("city", Askable.text(), "temp", new Askable.Num()));
        Object r = ok(ToolResults.typed(WEB, "now", key(reading), "{\"city\":\"Oslo\",\"temp\":3}", O));
        assertThat(((RecordValue) r).get(0)).isEqualTo("Oslo");
        assertThat(failure(ToolResults.typed(WEB, "now", key(reading), "{\"city\":\"Oslo\"}", O))).isEqualTo("Invalid {\"city\":\"Oslo\"}");
        Object list = ok(ToolResults.typed(WEB, "ids", key(Askable.listOf(new Askable.Num())), "[1,2]", O));
        assertThat(((ListValue) list).size()).isEqualTo(2);
    }

    @Test
    void failuresAndForks() {
        assertThat(failure(ToolResults.toolError("HTTP 503"))).isEqualTo("ToolError HTTP 503");
        assertThat(failure(ToolResults.invalid("<html>"))).isEqualTo("Invalid <html>");
        assertThat(ToolResults.isFork(SiteKey.FORK)).isTrue();
        assertThat(ToolResults.isFork(key(Askable.text()))).isFalse();
        ToolCapability py = new ToolCapability("py", 0, true);
        assertThat(ok(ToolResults.forked(py.withInstance(3)))).isEqualTo(new ToolCapability("py", 3, true));
        assertThat(ToolResults.brief("  a\n  long\tmessage  ", 6)).isEqualTo("a long…");
    }

    @Test
    void aKeyWithoutAResultTypeIsTheCallsCheckedError() {
        assertThatThrownBy(() -> ToolResults.typed(WEB, "get", "not a key", "x", O)).isInstanceOf(FinchTrap.class)
                .hasMessageContaining("`web` get carries no result type");
    }
}
