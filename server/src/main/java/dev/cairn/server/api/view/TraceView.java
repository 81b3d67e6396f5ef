package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.api.view.SignalViews;
import dev.cairn.api.view.Timings;
import dev.cairn.retrieval.StoredTrace;
import java.util.List;
import java.util.Map;

/**
 * {@code GET traces/{traceId}}: the stored request, outcome and every candidate; the selected ones
 * with their text.
 */
public record TraceView(
        String traceId,
        String query,
        Map<String, Object> request,
        double grounding,
        String plan,
        Timings timings,
        Map<String, SignalViews.Outcome> signals,
        String createdAt,
        List<Entry> trace) {

    /**
     * A candidate: the fields of the inline trace's candidates ({@code filteredOut}, {@code
     * explanation} and {@code graphPath} only when they say something), and title, heading, text
     * and authority when it was selected.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(
            String chunkId,
            String documentId,
            double fused,
            Map<String, Number> ranks,
            Map<String, Number> scores,
            boolean selected,
            String title,
            String heading,
            String text,
            String authority,
            Boolean filteredOut,
            String explanation,
            List<SignalViews.Relation> graphPath) {

        static Entry of(StoredTrace.Entry e) {
            boolean shown = e.selected();
            return new Entry(
                    e.chunkId(),
                    e.documentId(),
                    e.fused(),
                    KnowledgeViews.bySignal(e.ranks()),
                    KnowledgeViews.bySignal(e.scores()),
                    e.selected(),
                    shown ? e.title() : null,
                    shown ? e.heading() : null,
                    shown ? e.text() : null,
                    shown ? e.authority().key() : null,
                    e.filteredOut() ? Boolean.TRUE : null,
                    e.explanation().isEmpty() ? null : e.explanation(),
                    e.graphPath().isEmpty() ? null : KnowledgeViews.relations(e.graphPath()));
        }
    }

    public static TraceView of(StoredTrace trace) {
        return new TraceView(
                trace.traceId(),
                trace.query(),
                trace.request(),
                trace.grounding(),
                trace.plan().wireName(),
                KnowledgeViews.timings(trace.timings()),
                KnowledgeViews.outcomes(trace.signals()),
                trace.createdAt().toString(),
                trace.entries().stream().map(Entry::of).toList());
    }
}
