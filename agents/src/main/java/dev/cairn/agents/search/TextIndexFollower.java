package dev.cairn.agents.search;

import dev.cairn.store.Change;
import dev.cairn.store.DerivedIndex;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

/**
 * Keeps a {@link HybridTextIndex} current from the store's change log: changes of one kind (the
 * transcripts' {@code MESSAGE}, key/value's {@code KEY_VALUE}) re-read their entities' searchable
 * text, in one read per namespace and batch, and upsert it, or remove entities that are gone or no
 * longer searchable; a {@code NAMESPACE} delete forgets the namespace. The index loads a namespace
 * from current rows on its first search, so this follower starts at the store's last change. Called
 * by the change log only.
 */
public final class TextIndexFollower implements DerivedIndex {

    private final String name;
    private final Change.Kind kind;
    private final HybridTextIndex index;
    private final BiFunction<String, Collection<String>, Map<String, TextEntry>> searchable;
    private final LongSupplier lastChangeSeq;
    private volatile long position;

    /**
     * @param searchable the searchable text of the given entity ids of a namespace, by id; an id
     *     that is gone or not searchable (flagged, blank) is absent
     * @param lastChangeSeq the store's last change sequence
     */
    public TextIndexFollower(
            String name,
            Change.Kind kind,
            HybridTextIndex index,
            BiFunction<String, Collection<String>, Map<String, TextEntry>> searchable,
            LongSupplier lastChangeSeq) {
        this.name = Objects.requireNonNull(name, "name");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.index = Objects.requireNonNull(index, "index");
        this.searchable = Objects.requireNonNull(searchable, "searchable");
        this.lastChangeSeq = Objects.requireNonNull(lastChangeSeq, "lastChangeSeq");
        this.position = lastChangeSeq.getAsLong();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long lastAppliedSeq() {
        return position;
    }

    @Override
    public void apply(List<Change> changes) {
        String namespace = "";
        Set<String> ids = new LinkedHashSet<>();
        for (Change change : changes) {
            boolean namespaceDeleted =
                    change.kind() == Change.Kind.NAMESPACE && change.op() == Change.Op.DELETE;
            if (change.kind() != kind && !namespaceDeleted) {
                continue;
            }
            if (!change.namespace().equals(namespace) || namespaceDeleted) {
                refresh(namespace, ids);
                namespace = change.namespace();
            }
            if (namespaceDeleted) {
                index.invalidate(namespace);
            } else {
                ids.add(change.entityId());
            }
        }
        refresh(namespace, ids);
    }

    /** Re-reads {@code ids} and brings the index in line; clears {@code ids}. */
    private void refresh(String namespace, Set<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        Map<String, TextEntry> current = searchable.apply(namespace, List.copyOf(ids));
        List<String> gone = new ArrayList<>();
        for (String id : ids) {
            if (!current.containsKey(id)) {
                gone.add(id);
            }
        }
        index.remove(namespace, gone);
        index.upsert(namespace, current.values());
        ids.clear();
    }

    @Override
    public void applied(long seq) {
        position = seq;
    }

    /** Forgets every namespace; each reloads from current rows on its next search. */
    @Override
    public void reset() {
        position = lastChangeSeq.getAsLong();
        index.invalidateAll();
    }
}
