package dev.cairn.retrieval;

import dev.cairn.retrieval.feedback.AppliedAdaptation;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.store.Authority;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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

    /** The request view's key of the user the query was asked for, when it names one. */
    static final String USER_ID = "userId";

    /** The user the query was asked for, "" when none. */
    public String userId() {
        return String.valueOf(request.getOrDefault(USER_ID, ""));
    }

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

    /** The trace of a retrieve call as it is kept: every candidate, the selected ones with text. */
    static StoredTrace of(String namespace, RetrieveRequest request, RetrieveResult result) {
        Map<String, RetrievedHit> hits = new HashMap<>();
        result.hits().forEach(h -> hits.put(h.chunkId(), h));
        List<StoredTrace.Entry> entries = new ArrayList<>();
        int position = 0;
        for (TraceCandidate c : result.candidates()) {
            RetrievedHit hit = hits.get(c.chunkId());
            entries.add(
                    new StoredTrace.Entry(
                            position++,
                            c.chunkId(),
                            c.documentId(),
                            c.fused(),
                            c.ranks(),
                            c.scores(),
                            hit != null,
                            hit == null ? "" : hit.title(),
                            hit == null ? "" : hit.heading(),
                            hit == null ? "" : hit.text(),
                            hit == null
                                    ? dev.cairn.retrieval.store.Authority.DEFAULT
                                    : hit.authority(),
                            c.filteredOut(),
                            c.explanation(),
                            c.graphPath()));
        }
        Map<String, Object> requestView = new LinkedHashMap<>();
        requestView.put("query", request.query());
        requestView.put("topK", request.topK());
        requestView.put("candidates", request.candidates());
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Signal s : Signal.values()) {
            weights.put(s.name().toLowerCase(java.util.Locale.ROOT), request.weights().weight(s));
        }
        requestView.put("weights", weights);
        requestView.put("k", request.k());
        requestView.put("fusion", request.fusion().name().toLowerCase(java.util.Locale.ROOT));
        if (!request.userId().isEmpty()) {
            requestView.put(USER_ID, request.userId());
        }
        Map<String, Object> adaptation = new LinkedHashMap<>();
        AppliedAdaptation applied = result.adaptation();
        adaptation.put("applied", applied.applied());
        if (applied.applied()) {
            adaptation.put("version", applied.version());
            adaptation.put("denseWeight", applied.denseWeight());
            adaptation.put("priorWeight", applied.priorWeight());
            adaptation.put("learnedFusion", applied.learnedFusion());
        }
        requestView.put("adaptation", adaptation);
        return new StoredTrace(
                result.traceId(),
                namespace,
                request.query(),
                requestView,
                result.grounding(),
                result.plan(),
                result.timings(),
                result.signals(),
                Instant.now(),
                entries);
    }
}
