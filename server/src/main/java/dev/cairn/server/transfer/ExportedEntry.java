package dev.cairn.server.transfer;

import dev.cairn.agents.kv.KeyValueEntry;
import java.time.Instant;

/** An Orloj key/value entry as one line of the export file. */
record ExportedEntry(String type, String key, String value, boolean flagged, Instant updatedAt) {

    static final String TYPE = "entry";

    static ExportedEntry of(KeyValueEntry e) {
        return new ExportedEntry(TYPE, e.key(), e.value(), e.flagged(), e.updatedAt());
    }

    /**
     * The entry this line describes.
     *
     * @throws IllegalArgumentException (or NullPointerException) naming what is missing or illegal
     */
    KeyValueEntry entry() {
        return new KeyValueEntry(key, value, flagged, updatedAt);
    }
}
