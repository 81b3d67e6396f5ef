package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.agents.kv.KeyValueEntry;
import dev.cairn.agents.kv.KeyValueSearch;
import java.util.List;

/** The answers of the key/value memory, Orloj's provider shapes (also the memory tools'). */
public final class KeyValueAnswers {

    private KeyValueAnswers() {}

    /** {@code put} and {@code ping}. */
    public record Status(String status) {
        public static final Status OK = new Status("ok");
    }

    /** {@code put} of a value the write-path scanner flagged: stored, never searched. */
    public record StoredFlagged(String status, boolean flagged) {
        public static final StoredFlagged OK = new StoredFlagged("ok", true);
    }

    /** {@code get} of a flagged entry: as {@link Found}, with {@code flagged: true}. */
    public record FoundFlagged(boolean found, String key, String value, boolean flagged) {}

    /** The {@code memory.write} tool: the key written and whether write safety flagged it. */
    public record Written(String status, String key, boolean flagged) {}

    /** The {@code memory.ingest} tool: how many chunks, under which keys. */
    public record Ingested(int chunks, List<String> keys) {}

    /** {@code get}: {@code value} is "" when not found. */
    public record Found(boolean found, String key, String value) {}

    /** {@code search}: best matches first, and how many matches were withheld as flagged. */
    public record Results(
            List<Hit> results, @JsonInclude(JsonInclude.Include.NON_DEFAULT) int withheld) {

        /**
         * The hits; {@code withheld} (matches of flagged entries, held back for review) only when
         * some were.
         */
        public static Results of(KeyValueSearch search) {
            return new Results(
                    search.hits().stream()
                            .map(h -> new Hit(h.key(), h.value(), h.score()))
                            .toList(),
                    search.withheld());
        }
    }

    /** One search match. */
    public record Hit(String key, String value, double score) {}

    /** {@code list}: entries by key prefix. */
    public record Entries(List<Entry> entries) {

        public static Entries of(List<KeyValueEntry> entries) {
            return new Entries(entries.stream().map(e -> new Entry(e.key(), e.value())).toList());
        }
    }

    /** One stored entry. */
    public record Entry(String key, String value) {}
}
