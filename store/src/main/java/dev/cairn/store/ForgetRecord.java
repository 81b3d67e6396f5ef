package dev.cairn.store;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The audit record of one forgotten user: who asked, when, which user of which namespace, and how
 * many rows of each kind went. It holds no content. The user id is kept on purpose: without it the
 * record could not show that the request it answers was honoured.
 *
 * @param id the record's id (also the entity id of the {@link Change.Kind#USER} change)
 * @param namespace where the user was forgotten
 * @param userId the forgotten user
 * @param requestedBy who asked: the name of the caller's token
 * @param at when the forget committed
 * @param counts rows removed per kind (e.g. {@code memories}, {@code messages})
 */
public record ForgetRecord(
        String id,
        String namespace,
        String userId,
        String requestedBy,
        Instant at,
        Map<String, Long> counts) {

    public ForgetRecord {
        Records.requireText(id, "id");
        Namespace.requireValidName(namespace);
        Records.requireText(userId, "userId");
        Records.requireText(requestedBy, "requestedBy");
        Objects.requireNonNull(at, "at");
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    }

    /** Rows removed over every kind. */
    public long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }
}
