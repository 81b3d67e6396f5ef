package dev.cairn.server.transfer;

import dev.cairn.judge.store.StoredPolicy;
import java.time.Instant;

/**
 * A registered judge policy document as one line of the export file. An import registers it again
 * (checked as {@code PUT policies} checks it); the time becomes the import's.
 */
record ExportedPolicy(String type, String name, String document, Instant updatedAt) {

    static final String TYPE = "policy";

    static ExportedPolicy of(StoredPolicy p) {
        return new ExportedPolicy(TYPE, p.name(), p.document(), p.updatedAt());
    }
}
