package dev.cairn.memory.internal;

import dev.cairn.memory.safety.WriteGuard;
import dev.cairn.memory.service.WriteBlockedException;

/** Write-safety helpers shared by the memory module's write paths. Not API. Thread-safe. */
public final class Guards {

    private Guards() {}

    /** Returns {@code guarded}, or throws when write safety blocked it. */
    public static WriteGuard.Guarded requireAllowed(WriteGuard.Guarded guarded) {
        if (guarded.blocked()) {
            throw new WriteBlockedException(guarded.safety().firstBlocking().orElseThrow().rule());
        }
        return guarded;
    }
}
