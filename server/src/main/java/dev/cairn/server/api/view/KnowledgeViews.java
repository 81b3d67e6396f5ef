package dev.cairn.server.api.view;

import dev.cairn.api.view.DocumentView;
import dev.cairn.api.view.RetrieveAnswer;
import dev.cairn.api.view.SignalViews;
import dev.cairn.api.view.Timings;
import dev.cairn.retrieval.GraphContext;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.retrieval.RetrievedHit;
import dev.cairn.retrieval.SignalOutcome;
import dev.cairn.retrieval.TraceCandidate;
import dev.cairn.retrieval.feedback.AppliedAdaptation;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.retrieval.store.StoredDocument;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Documents, retrieve answers and their signals as the API shows them: the knowledge side's domain
 * values mapped onto the wire records of {@code dev.cairn.api.view}. Stateless, thread-safe.
 */
public final class KnowledgeViews {

    private KnowledgeViews() {}

    public static DocumentView document(StoredDocument d) {
        return new DocumentView(
                d.id(),
                d.version(),
                d.title(),
                d.format().name().toLowerCase(Locale.ROOT),
                d.source(),
                d.authority().key(),
                d.tags(),
                d.metadata(),
                d.contentHash(),
                d.createdAt().toString(),
                d.updatedAt().toString());
    }

    /** {@code GET documents/{id}}: the listed fields, the content and the chunks. */
    public static DocumentView.Detail detail(StoredDocument d, List<StoredChunk> chunks) {
        return new DocumentView.Detail(
                document(d), d.content(), chunks.stream().map(KnowledgeViews::chunk).toList());
    }

    private static DocumentView.Chunk chunk(StoredChunk c) {
        return new DocumentView.Chunk(
                c.id(),
                c.ordinal(),
                c.heading(),
                c.headingPath(),
                c.text(),
                c.tokenCount(),
                c.embeddingModel());
    }

    /** The answer of {@code POST retrieve}; the candidate trace only {@code withTrace}. */
    public static RetrieveAnswer retrieve(RetrieveResult result, boolean withTrace) {
        Map<String, List<String>> evidence = new LinkedHashMap<>();
        for (Authority a : Authority.values()) {
            evidence.put(
                    a.key(),
                    result.hits().stream()
                            .filter(h -> h.authority() == a)
                            .map(RetrievedHit::chunkId)
                            .toList());
        }
        return new RetrieveAnswer(
                result.traceId(),
                result.hits().stream().map(KnowledgeViews::hit).toList(),
                withTrace
                        ? result.candidates().stream().map(KnowledgeViews::candidate).toList()
                        : null,
                evidence,
                result.graph().entities().stream()
                        .map(e -> new RetrieveAnswer.Entity(e.id(), e.name()))
                        .toList(),
                relations(result.graph().relations()),
                result.grounding(),
                result.plan().wireName(),
                timings(result.timings()),
                outcomes(result.signals()),
                result.partial(),
                adaptation(result.adaptation()));
    }

    /** What a retrieve or recall answer says of the adaptation it applied. */
    static RetrieveAnswer.Adaptation adaptation(AppliedAdaptation a) {
        return a.applied()
                ? new RetrieveAnswer.Adaptation(
                        true, a.version(), a.denseWeight(), a.priorWeight(), a.learnedFusion())
                : new RetrieveAnswer.Adaptation(false, null, null, null, null);
    }

    private static RetrieveAnswer.Hit hit(RetrievedHit hit) {
        return new RetrieveAnswer.Hit(
                hit.chunkId(),
                hit.documentId(),
                hit.title(),
                hit.text(),
                hit.heading(),
                hit.score(),
                hit.authority().key(),
                bySignal(hit.ranks()),
                bySignal(hit.scores()));
    }

    private static RetrieveAnswer.Candidate candidate(TraceCandidate c) {
        return new RetrieveAnswer.Candidate(
                c.chunkId(),
                c.documentId(),
                bySignal(c.ranks()),
                bySignal(c.scores()),
                c.fused(),
                c.selected(),
                c.filteredOut() ? Boolean.TRUE : null,
                c.explanation().isEmpty() ? null : c.explanation(),
                c.graphPath().isEmpty() ? null : relations(c.graphPath()));
    }

    public static Timings timings(dev.cairn.retrieval.Timings t) {
        return new Timings(t.lexicalMs(), t.denseMs(), t.graphMs(), t.fusionMs(), t.totalMs());
    }

    /** Traversed relations of the entity graph, in order. */
    public static List<SignalViews.Relation> relations(
            List<GraphContext.TraversedRelation> relations) {
        return relations.stream()
                .map(r -> new SignalViews.Relation(r.from(), r.to(), r.type(), r.weight()))
                .toList();
    }

    /** Outcomes keyed by signal name ({@code lexical}, {@code dense}, {@code graph}). */
    public static Map<String, SignalViews.Outcome> outcomes(List<SignalOutcome> outcomes) {
        Map<String, SignalViews.Outcome> view = new LinkedHashMap<>();
        for (SignalOutcome o : outcomes) {
            view.put(
                    o.signal().name().toLowerCase(Locale.ROOT),
                    new SignalViews.Outcome(
                            o.status().name().toLowerCase(Locale.ROOT),
                            o.millis(),
                            o.returned(),
                            o.detail().isEmpty() ? null : o.detail()));
        }
        return view;
    }

    /** Values keyed by signal name, in signal order, only the signals that have one. */
    public static Map<String, Number> bySignal(Map<Signal, ? extends Number> values) {
        Map<String, Number> out = new LinkedHashMap<>();
        for (Signal s : Signal.values()) {
            if (values.containsKey(s)) {
                out.put(s.name().toLowerCase(Locale.ROOT), values.get(s));
            }
        }
        return out;
    }
}
