package dev.cairn.memory.extract;

import dev.cairn.memory.Scope;
import java.util.Objects;

/** One exchange to extract memories from: the user's query and the assistant's response. */
public record ExtractionInput(String query, String response, Scope scope) {
    public ExtractionInput {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(response, "response");
        Objects.requireNonNull(scope, "scope");
    }
}
