package dev.cairn.graph;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names of one namespace's entities: every declared name and alias, every acronym learnt with
 * its expansion, and every entity the extractor found, keyed by {@link Canonical#key}. It only
 * grows; a removed document leaves its names behind (a name that links to no node links to
 * nothing).
 *
 * <p>Conflicts: a key names one entity. A declaration takes a key from an entity that was only
 * extracted (its node is merged by {@link EntityGraph}); between two declared entities the first
 * one keeps the key and the conflict is logged.
 *
 * <p>Thread-safe: lookups are lock-free, changes are serialised.
 */
public final class Gazetteer {

    private static final System.Logger LOG = System.getLogger(Gazetteer.class.getName());

    private final Map<String, String> idByKey = new ConcurrentHashMap<>();
    private final Map<String, Entity> entities = new ConcurrentHashMap<>();
    private volatile int maxPhraseWords = 1;

    /** An empty gazetteer. */
    public Gazetteer() {}

    /**
     * Declares an entity with its aliases, or adds aliases to a known one.
     *
     * @param declaration name, kind and aliases
     * @return the result: the entity and the ids of extracted-only entities whose names it took
     */
    public synchronized Declared declare(EntityDeclaration declaration) {
        String key = Canonical.key(declaration.name());
        String id = idByKey.getOrDefault(key, key);
        Entity existing = entities.get(id);
        if (existing != null && !existing.declared()) {
            // An extracted entity under the declared name: the declaration defines it now.
            id = key;
            existing = entities.get(key);
        }
        LinkedHashSet<String> aliases = new LinkedHashSet<>();
        if (existing != null) {
            aliases.addAll(existing.aliases());
        }
        aliases.addAll(declaration.aliases());
        aliases.removeIf(a -> Canonical.key(a).isEmpty());
        Entity entity =
                new Entity(
                        id,
                        existing != null && existing.declared()
                                ? existing.name()
                                : declaration.name(),
                        existing != null && existing.declared()
                                ? existing.kind()
                                : declaration.kind(),
                        List.copyOf(aliases),
                        true);
        entities.put(id, entity);
        List<String> absorbed = new ArrayList<>();
        claim(key, id, absorbed);
        for (String alias : aliases) {
            claim(Canonical.key(alias), id, absorbed);
        }
        return new Declared(entity, absorbed);
    }

    /**
     * Records an entity found by extraction, unless the key is already known. An extracted entity
     * seen again with evidence that it is an alert becomes one (its first sighting may have been a
     * mention without that evidence); declared entities keep their kind.
     *
     * @param surface the surface form
     * @param kind guessed kind
     * @return the known or new entity
     */
    public Entity observe(String surface, EntityKind kind) {
        String key = Canonical.key(surface);
        Optional<Entity> known = lookupKey(key);
        if (known.isPresent() && !upgrades(known.get(), kind)) {
            return known.get();
        }
        synchronized (this) {
            known = lookupKey(key);
            if (known.isPresent()) {
                Entity e = known.get();
                if (!upgrades(e, kind)) {
                    return e;
                }
                Entity alert = new Entity(e.id(), e.name(), kind, e.aliases(), false);
                entities.put(e.id(), alert);
                return alert;
            }
            Entity entity = new Entity(key, surface.strip(), kind, List.of(), false);
            entities.put(key, entity);
            idByKey.put(key, key);
            noteWords(surface);
            return entity;
        }
    }

    /**
     * Adds an alias to an entity (e.g. an acronym beside its expansion).
     *
     * @param entityId entity id
     * @param alias the alias
     */
    public synchronized void addAlias(String entityId, String alias) {
        Entity entity = entities.get(entityId);
        String key = Canonical.key(alias);
        if (entity == null || key.isEmpty() || idByKey.containsKey(key)) {
            return;
        }
        List<String> aliases = new ArrayList<>(entity.aliases());
        aliases.add(alias);
        entities.put(
                entityId,
                new Entity(entityId, entity.name(), entity.kind(), aliases, entity.declared()));
        idByKey.put(key, entityId);
        noteWords(alias);
    }

    /**
     * The entity a name or alias stands for.
     *
     * @param surface a name as written
     * @return the entity, if the name is known
     */
    public Optional<Entity> lookup(String surface) {
        return lookupKey(Canonical.key(surface));
    }

    /**
     * An entity by id.
     *
     * @param id canonical key
     * @return the entity, if known
     */
    public Optional<Entity> entity(String id) {
        return Optional.ofNullable(entities.get(id));
    }

    /**
     * All known entities (a snapshot view).
     *
     * @return the entities
     */
    public Collection<Entity> entities() {
        return List.copyOf(entities.values());
    }

    /**
     * Longest known name in words; the extractor looks for phrases up to this length.
     *
     * @return word count, at least 1
     */
    public int maxPhraseWords() {
        return maxPhraseWords;
    }

    /**
     * Everything this gazetteer knows, as {@link GraphSnapshot} writes it.
     *
     * @return the entities, the key table and the longest name in words
     */
    synchronized State state() {
        return new State(List.copyOf(entities.values()), Map.copyOf(idByKey), maxPhraseWords);
    }

    /** Replaces what this (new, empty) gazetteer knows with a snapshot's {@link State}. */
    synchronized void restore(State state) {
        for (Entity e : state.entities()) {
            entities.put(e.id(), e);
        }
        idByKey.putAll(state.idByKey());
        maxPhraseWords = Math.clamp(state.maxPhraseWords(), 1, 8);
    }

    /** What a gazetteer knows (see {@link #state()}). */
    record State(List<Entity> entities, Map<String, String> idByKey, int maxPhraseWords) {}

    private static boolean upgrades(Entity known, EntityKind kind) {
        return kind == EntityKind.ALERT && !known.declared() && known.kind() != EntityKind.ALERT;
    }

    Optional<Entity> lookupKey(String key) {
        String id = idByKey.get(key);
        return id == null ? Optional.empty() : Optional.ofNullable(entities.get(id));
    }

    private void claim(String key, String id, List<String> absorbed) {
        if (key.isEmpty()) {
            return;
        }
        String holder = idByKey.get(key);
        if (holder != null && !holder.equals(id)) {
            Entity other = entities.get(holder);
            if (other != null && other.declared()) {
                LOG.log(
                        Level.WARNING,
                        "name {0} already names entity {1}; not an alias of {2}",
                        key,
                        holder,
                        id);
                return;
            }
            entities.remove(holder);
            idByKey.replaceAll((k, v) -> v.equals(holder) ? id : v);
            absorbed.add(holder);
        }
        idByKey.put(key, id);
        noteWords(key.replace('-', ' '));
    }

    private void noteWords(String surface) {
        int words = surface.strip().split("[\\s\\-_]+").length;
        if (words > maxPhraseWords) {
            maxPhraseWords = Math.min(words, 8);
        }
    }

    /**
     * Result of {@link #declare}.
     *
     * @param entity the declared entity
     * @param absorbed ids of extracted-only entities merged into it
     */
    public record Declared(Entity entity, List<String> absorbed) {
        /** Copies. */
        public Declared {
            absorbed = List.copyOf(absorbed);
        }
    }
}
