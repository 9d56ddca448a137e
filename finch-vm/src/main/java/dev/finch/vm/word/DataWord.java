package dev.finch.vm.word;

import dev.finch.ir.type.Type;
import dev.finch.vm.boundary.HostFailure;
import java.util.Objects;

/**
 * A word a host declares as data rather than on an annotated method: its name, documentation and one signature, and
 * the object that implements it. For words derived at run time from something the host discovers — each tool an
 * MCP server lists becomes one ({@code mcp.<server>.<tool>}) — where no class can be written ahead. {@link Library#withWords}
 * installs them; their calls pass the same boundary as every host-installed word ({@link HostCalls}): authorization
 * of the signature's one capability, the journal, approval and deferred mode, then the body, at most once, with its
 * answer checked against the declared output.
 *
 * @param name       the word's name in every frontend
 * @param doc        what discovery shows
 * @param signature  inputs, at most one output, and at most one capability (no {@code session.emit}, no yields)
 * @param overloadId the stable id verified calls record; a new id whenever the declaration changes, so a definition
 *                   verified against the old one keeps calling what it was verified against
 * @param body       the implementation
 */
public record DataWord(String name, String doc, Type.Fn signature, String overloadId, Body body) {
    public DataWord {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(doc, "doc");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(overloadId, "overloadId");
        Objects.requireNonNull(body, "body");
    }

    /** The implementation of a data word. */
    @FunctionalInterface
    public interface Body {
        /**
         * One call, with the inputs in the VM's representation of the signature's types ({@link Representation});
         * answers the output in that representation (ignored when the signature has none). A body that waits polls
         * {@code watch} and gives up as soon as it answers (the run is cancelled or past its deadline). A
         * {@link HostFailure} fails the call with its code; anything else it throws fails it with {@code E-HOST-017}.
         */
        Object call(Object[] inputs, dev.finch.vm.boundary.Watch watch) throws HostFailure;
    }
}
