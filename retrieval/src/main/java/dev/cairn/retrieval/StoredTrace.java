package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.store.Authority;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A persisted retrieve call: its request, every candidate (selected hits carry the text they had at
 * the time, so a judge can still read them after the document changed), the grounding, plan,
 * timings and signal outcomes.
 */
public record StoredTrace(
        String traceId,
        String namespace,
        String query,
        Map<String, Object> request,
        double grounding,
        Plan plan,
        Timings timings,
        List<SignalOutcome> signals,
        Instant createdAt,
        List<Entry> entries) {

    public StoredTrace {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(query, "query");
        request = Map.copyOf(request);
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(timings, "timings");
        signals = List.copyOf(signals);
        Objects.requireNonNull(createdAt, "createdAt");
        entries = List.copyOf(entries);
    }

    /** The selected hits, best first. */
    public List<Entry> selected() {
        return entries.stream().filter(Entry::selected).toList();
    }

    /**
     * One candidate of the trace; text, title and heading are empty for unselected ones. {@code
     * filteredOut}, {@code explanation} and {@code graphPath} are those of the {@link
     * TraceCandidate} it was, so a stored trace tells as much as the inline one.
     */
    public record Entry(
            int position,
            String chunkId,
            String documentId,
            double fused,
            Map<Signal, Integer> ranks,
            Map<Signal, Double> scores,
            boolean selected,
            String title,
            String heading,
            String text,
            Authority authority,
            boolean filteredOut,
            String explanation,
            List<GraphContext.TraversedRelation> graphPath) {

        public Entry {
            ranks = Map.copyOf(ranks);
            scores = Map.copyOf(scores);
            Objects.requireNonNull(explanation, "explanation");
            graphPath = List.copyOf(graphPath);
        }

        /** A candidate nothing filtered out, without a lexical explanation or graph path. */
        public Entry(
                int position,
                String chunkId,
                String documentId,
                double fused,
                Map<Signal, Integer> ranks,
                Map<Signal, Double> scores,
                boolean selected,
                String title,
                String heading,
                String text,
                Authority authority) {
            this(
                    position,
                    chunkId,
                    documentId,
                    fused,
                    ranks,
                    scores,
                    selected,
                    title,
                    heading,
                    text,
                    authority,
                    false,
                    "",
                    List.of());
        }
    }
}
