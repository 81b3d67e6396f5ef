package dev.cairn.api.body;

import java.util.List;

/**
 * {@code PUT /v1/namespaces/{ns}/memories/{id}}: every field optional, an absent or null one is
 * left as it is. {@code status} is known only to answer that it is changed by the {@code
 * invalidate}, {@code disable} and {@code enable} actions instead.
 */
public record MemoryEditBody(
        String content,
        String type,
        String layer,
        List<String> tags,
        Double confidence,
        Double importance,
        String conflictKey,
        String status) {}
