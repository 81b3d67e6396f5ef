package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.retrieval.StoredTrace;
import dev.cairn.retrieval.Timings;
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

    /** A candidate; title, heading, text and authority only when it was selected. */
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
            String authority) {

        static Entry of(StoredTrace.Entry e) {
            boolean shown = e.selected();
            return new Entry(
                    e.chunkId(),
                    e.documentId(),
                    e.fused(),
                    SignalViews.bySignal(e.ranks()),
                    SignalViews.bySignal(e.scores()),
                    e.selected(),
                    shown ? e.title() : null,
                    shown ? e.heading() : null,
                    shown ? e.text() : null,
                    shown ? e.authority().key() : null);
        }
    }

    public static TraceView of(StoredTrace trace) {
        return new TraceView(
                trace.traceId(),
                trace.query(),
                trace.request(),
                trace.grounding(),
                trace.plan().wireName(),
                trace.timings(),
                SignalViews.outcomes(trace.signals()),
                trace.createdAt().toString(),
                trace.entries().stream().map(Entry::of).toList());
    }
}
