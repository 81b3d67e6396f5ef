package dev.cairn.memory.service;

import dev.cairn.memory.Memory;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.Scope;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The conversation turns of one namespace in the order they were said: memories taken from a
 * conversation ({@link MemorySource.Kind#CONVERSATION}) that name a session, ordered within their
 * session by when they were written, then by id. Recall asks for a turn's neighbours: an exchange
 * spreads over several turns ("do you have pets?" / "yup, Oscar, my guinea pig"), and the turn that
 * answers is often not the one that shares the question's words. Thread-safe: readers see
 * concurrent maps while the change log updates them.
 */
final class ConversationTurns {

    /** Where a turn stands in its session. */
    private record Position(String session, Instant at, String id) {}

    private static final Comparator<Position> ORDER =
            Comparator.comparing(Position::at).thenComparing(Position::id);

    private final Map<String, ConcurrentSkipListMap<Position, String>> sessions =
            new ConcurrentHashMap<>();
    private final Map<String, Position> positions = new ConcurrentHashMap<>();

    /** Whether {@code m} is a conversation turn with a session. */
    static boolean isTurn(Memory m) {
        return isTurn(m.source(), m.scope());
    }

    /** Whether a memory of this source and scope is a conversation turn (written or to write). */
    static boolean isTurn(MemorySource source, Scope scope) {
        return source.kind() == MemorySource.Kind.CONVERSATION && !scope.sessionName().isEmpty();
    }

    /** Adds or moves {@code m}; a memory that is no turn is only removed. */
    void put(Memory m) {
        remove(m.id());
        if (!isTurn(m)) {
            return;
        }
        Position p = new Position(m.scope().sessionName(), m.createdAt(), m.id());
        sessions.computeIfAbsent(p.session(), s -> new ConcurrentSkipListMap<>(ORDER))
                .put(p, p.id());
        positions.put(m.id(), p);
    }

    void remove(String id) {
        Position p = positions.remove(id);
        if (p != null) {
            var session = sessions.get(p.session());
            if (session != null) {
                session.remove(p);
            }
        }
    }

    /** The turn said right before {@code id} in its session. */
    Optional<String> before(String id) {
        return neighbour(id, true);
    }

    /** The turn said right after {@code id} in its session. */
    Optional<String> after(String id) {
        return neighbour(id, false);
    }

    private Optional<String> neighbour(String id, boolean before) {
        Position p = positions.get(id);
        if (p == null) {
            return Optional.empty();
        }
        var session = sessions.get(p.session());
        if (session == null) {
            return Optional.empty();
        }
        var entry = before ? session.lowerEntry(p) : session.higherEntry(p);
        return entry == null ? Optional.empty() : Optional.of(entry.getValue());
    }
}
