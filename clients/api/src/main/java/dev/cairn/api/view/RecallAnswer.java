package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code POST recall} (also the {@code recall_memory} tool's and the command line's):
 * the scored memories, the assembled context with its token count and the memory ids per layer, and
 * the people the query named (whose memories were more relevant) with the name that matched, the
 * facets a list question asked for ({@code place}, {@code pastime}, ...: memories telling of them
 * were more relevant), whose memories were read ({@code scope}) and the namespace's recall
 * adaptation it applied (the same shape as retrieve's).
 */
public record RecallAnswer(
        List<Scored> memories,
        String context,
        int tokens,
        Map<String, List<String>> layers,
        boolean partial,
        long tookMs,
        List<Person> people,
        List<String> facets,
        String scope,
        RetrieveAnswer.Adaptation adaptation) {

    /**
     * A person the query named: {@code asked} is the query's word, {@code name} the name of theirs
     * it matched, {@code via} where that name comes from (label, declared, addressed, introduced)
     * and {@code match} how (exact, prefix, spelling).
     */
    public record Person(String userId, String asked, String name, String via, String match) {}

    /** A recalled memory with its score and what the score is made of. */
    public record Scored(MemoryView memory, double score, Components components) {}

    /**
     * The parts of a recall score; {@code boosts} says how much of {@code relevance} each boost
     * added (period, time, session, answer, burst, speaker, facet, judged, brief), only those that
     * applied.
     */
    public record Components(
            double relevance,
            double recency,
            double typeBonus,
            double confidence,
            double importance,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Double> boosts) {}
}
