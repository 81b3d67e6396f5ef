package dev.cairn.server.api.view;

import dev.cairn.store.ForgetRecord;
import java.util.Map;

/**
 * The answer of {@code DELETE /v1/namespaces/{ns}/users/{userId}}: the forget's audit record,
 * without content. {@code removed} counts rows per kind, {@code total} sums them.
 */
public record ForgetView(
        String id,
        String namespace,
        String userId,
        String requestedBy,
        String at,
        Map<String, Long> removed,
        long total) {

    public static ForgetView of(ForgetRecord r) {
        return new ForgetView(
                r.id(),
                r.namespace(),
                r.userId(),
                r.requestedBy(),
                r.at().toString(),
                r.counts(),
                r.total());
    }
}
