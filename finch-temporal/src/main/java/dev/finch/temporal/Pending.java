package dev.finch.temporal;

/**
 * The host request a suspended execution waits for, as the workflow keeps it: enough to decide what to do next
 * (wait for an approval, dispatch it, wait for an outside answer) without reading the image.
 *
 * @param sequence    the request's sequence in its execution; with the execution id, its idempotency key
 * @param operation   the word that asked ({@code file-read}, {@code process-run}, {@code model-ask}, …)
 * @param requirement the concrete capability, canonically written ({@code fs.read(${workspace}/notes.txt)})
 * @param awaiting    {@code approval} (a grant is missing) or {@code result} (approved: to be performed)
 * @param request     the request's JSON ({@code FinchJson.write(EffectRequest)}: arguments, expected row, origin)
 */
public record Pending(long sequence, String operation, String requirement, String awaiting, String request) {
    /** The {@link #awaiting} of a request that needs an approval or a denial. */
    public static final String APPROVAL = "approval";
    /** The {@link #awaiting} of an approved request that waits for its result. */
    public static final String RESULT = "result";

    /** Whether the request waits for an approval or a denial. */
    public boolean awaitsApproval() { return APPROVAL.equals(awaiting); }
}
