package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.memory.AssembledContext;
import dev.cairn.memory.PersonNames;
import dev.cairn.memory.ScoreComponents;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.service.RecallResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The answer of {@code POST recall} (also the {@code recall_memory} tool's and the command line's):
 * the scored memories, the assembled context with its token count and the memory ids per layer, and
 * the people the query named (whose memories were more relevant) with the name that matched.
 */
public record RecallAnswer(
        List<Scored> memories,
        String context,
        int tokens,
        Map<String, List<String>> layers,
        boolean partial,
        long tookMs,
        List<Person> people,
        String scope) {

    /**
     * A person the query named: {@code asked} is the query's word, {@code name} the name of theirs
     * it matched, {@code via} where that name comes from (label, declared, addressed, introduced)
     * and {@code match} how (exact, prefix, spelling).
     */
    public record Person(String userId, String asked, String name, String via, String match) {
        static Person of(PersonNames.NamedPerson p) {
            return new Person(
                    p.userId(),
                    p.asked(),
                    p.name(),
                    p.via().name().toLowerCase(Locale.ROOT),
                    p.match().name().toLowerCase(Locale.ROOT));
        }
    }

    /** A recalled memory with its score and what the score is made of. */
    public record Scored(MemoryView memory, double score, Components components) {}

    /**
     * The parts of a recall score; {@code boosts} says how much of {@code relevance} each boost
     * added (period, time, session, exchange, speaker, facet), only those that applied.
     */
    public record Components(
            double relevance,
            double recency,
            double typeBonus,
            double confidence,
            double importance,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Double> boosts) {}

    private static Map<String, Double> boosts(ScoreComponents components) {
        Map<String, Double> out = new LinkedHashMap<>();
        components.boosts().forEach((b, v) -> out.put(b.label(), v));
        return out;
    }

    public static RecallAnswer of(RecallResult r) {
        List<Scored> memories =
                r.memories().stream()
                        .map(
                                (ScoredMemory s) ->
                                        new Scored(
                                                MemoryView.of(s.memory()),
                                                s.score(),
                                                new Components(
                                                        s.components().relevance(),
                                                        s.components().recency(),
                                                        s.components().typeBonus(),
                                                        s.components().confidence(),
                                                        s.components().importance(),
                                                        boosts(s.components()))))
                        .toList();
        AssembledContext context = r.context();
        Map<String, List<String>> layers = new LinkedHashMap<>();
        context.layers().forEach((layer, ids) -> layers.put(layer.name(), ids));
        return new RecallAnswer(
                memories,
                context.text(),
                context.tokens(),
                layers,
                r.partial(),
                r.tookMillis(),
                r.people().stream().map(Person::of).toList(),
                r.scope().label());
    }
}
