package dev.cairn.graph;

/**
 * How {@link GraphSignal} turns linked entities into chunk scores.
 *
 * <p>Immutable and thread-safe.
 */
public enum Proximity {
    /**
     * Weighted expansion with hop decay (the default): {@code score(v) = max over paths p from a
     * linked entity to v with at most maxHops edges of prod_{e in p} w(e) * decay^|p|}. Exact under
     * the hop bound (a Bellman-Ford-style relaxation, one round per hop), touches only the bounded
     * neighbourhood, and every score is one explainable path. See {@link
     * GraphSignal#create(EntityGraph)} for why it is the default.
     */
    WEIGHTED_EXPANSION,
    /**
     * Personalised PageRank (Haveliwala, "Topic-Sensitive PageRank", WWW 2002; Jeh and Widom,
     * "Scaling Personalized Web Search", WWW 2003): random walk with restart at the linked
     * entities, power iteration on the neighbourhood within maxHops, transition probability
     * proportional to edge weight, edges walked in both directions. Paths shown are the best
     * weighted-expansion paths.
     */
    PERSONALIZED_PAGERANK
}
