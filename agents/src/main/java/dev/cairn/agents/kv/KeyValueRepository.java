package dev.cairn.agents.kv;

import dev.cairn.store.SqlAccess;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** Key/value entries in the store's database. Implementations are thread-safe. */
public interface KeyValueRepository {

    static KeyValueRepository sql(SqlAccess sql) {
        return new SqlKeyValueRepository(sql, Clock.systemUTC());
    }

    /** Stores {@code value} under {@code key}, replacing what was there. */
    KeyValueEntry put(String namespace, String key, String value, boolean flagged);

    /**
     * Stores {@code entry} as it is, its time included (an imported namespace's entry), replacing
     * what was there.
     */
    KeyValueEntry restore(String namespace, KeyValueEntry entry);

    Optional<KeyValueEntry> get(String namespace, String key);

    /** Entries whose key starts with {@code prefix} ("" for all), by key, at most {@code limit}. */
    List<KeyValueEntry> list(String namespace, String prefix, int limit);

    /**
     * Every entry of the namespace, flagged ones included (search indexes them all, so that it can
     * say how many matches it withheld).
     */
    List<KeyValueEntry> searchable(String namespace);

    /** How many entries of the namespace are flagged. */
    int flaggedCount(String namespace);

    /** Deletes an entry; false when there was none. */
    boolean delete(String namespace, String key);
}
