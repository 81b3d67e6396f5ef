package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.Signal;
import java.util.Objects;

/**
 * How one signal fared in a retrieve call. A late or failed signal leaves the others' answer
 * intact; the outcome says so.
 *
 * @param millis wall time the signal took (or was given, when it timed out)
 * @param returned candidates it contributed
 * @param detail why it failed or was skipped; empty when OK
 */
public record SignalOutcome(
        Signal signal, Status status, double millis, int returned, String detail) {

    public SignalOutcome {
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(detail, "detail");
    }

    /** Outcomes of a signal. */
    public enum Status {
        OK,
        TIMEOUT,
        FAILED,
        /** Weight 0, or no implementation of the signal is wired. */
        SKIPPED
    }
}
