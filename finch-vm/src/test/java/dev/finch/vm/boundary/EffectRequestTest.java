package dev.finch.vm.boundary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.value.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The envelope's typed arguments: displays derived from them, receipts without them, inputs checked against the site. */
class EffectRequestTest {
    private static final Type.Fn WRITE = Type.Fn.of(List.of(Type.STRING, Type.BYTES), List.of());

    private static EffectRequest write(byte[] data) {
        return new EffectRequest(EffectRequest.PROTOCOL, "s1-e1", 1, Capability.of("fs.write", "x"), "file-write",
                EffectRequest.inputs(WRITE, "a.txt", Bytes.wrap(data)), List.of(), Origin.of("t", 1, 1));
    }

    @Test
    void argumentsAreTheDisplaysOfTheTypedValues() {
        EffectRequest r = write(new byte[] {104, 105});
        assertThat(r.values()).extracting(v -> v.type().toString()).containsExactly("string", "bytes");
        assertThat(r.arguments()).containsExactly("\"a.txt\"", "#bytes[104 105]");
    }

    @Test
    void aReceiptKeepsTheEnvelopeButNotTheValues() {
        EffectRequest r = write(new byte[1 << 16]);
        EffectRequest receipt = r.receipt();
        assertThat(receipt.values()).isEmpty();
        assertThat(receipt.sequence()).isEqualTo(r.sequence());
        assertThat(receipt.requirement()).isEqualTo(r.requirement());
        assertThat(receipt.operation()).isEqualTo(r.operation());
        assertThat(receipt.receipt()).isSameAs(receipt);
        EffectJournal journal = new EffectJournal();
        journal.record(r, EffectJournal.State.REQUESTED);
        journal.record(r, EffectJournal.State.ACKNOWLEDGED);
        assertThat(journal.entries()).containsExactly(new EffectJournal.Entry(receipt, EffectJournal.State.ACKNOWLEDGED));
    }

    @Test
    void inputsMustMatchTheSite() {
        assertThatThrownBy(() -> EffectRequest.inputs(WRITE, "a.txt")).isInstanceOf(IllegalArgumentException.class);
    }
}
