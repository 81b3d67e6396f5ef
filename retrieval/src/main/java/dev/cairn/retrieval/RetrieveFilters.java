package dev.cairn.retrieval;

import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.StoredDocument;
import java.util.List;
import java.util.Set;

/**
 * Restricts a retrieve call to documents with any of {@code tags}, any of {@code sources}, and one
 * of {@code authorities}; an empty list or set does not restrict.
 */
public record RetrieveFilters(List<String> tags, List<String> sources, Set<Authority> authorities) {

    public static final RetrieveFilters NONE = new RetrieveFilters(List.of(), List.of(), Set.of());

    public RetrieveFilters {
        tags = List.copyOf(tags);
        sources = List.copyOf(sources);
        authorities = Set.copyOf(authorities);
    }

    public boolean isEmpty() {
        return tags.isEmpty() && sources.isEmpty() && authorities.isEmpty();
    }

    boolean accepts(StoredDocument document) {
        return (tags.isEmpty() || document.tags().stream().anyMatch(tags::contains))
                && (sources.isEmpty() || sources.contains(document.source()))
                && (authorities.isEmpty() || authorities.contains(document.authority()));
    }
}
