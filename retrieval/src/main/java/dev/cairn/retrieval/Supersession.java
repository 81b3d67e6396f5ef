package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.store.StoredChunk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Retrieve's supersession rule, applied to a fused ranking. Stateless and thread-safe. */
final class Supersession {

    private Supersession() {}

    /**
     * The supersession rule after fusion: a chunk of a document that another candidate document
     * declares it supersedes is placed directly below the successor's best chunk when fusion ranked
     * it above (the graph signal already scores it below its successor, but the lexical and dense
     * signals know nothing of supersession and can outvote it). Fused scores are kept; the trace
     * explanation says why the chunk moved. A superseded chunk whose successor is not a candidate
     * stays where it is.
     */
    static List<FusedCandidate> apply(
            GraphRanker graph,
            String namespace,
            List<FusedCandidate> fused,
            Map<String, String> explanations) {
        if (graph == GraphRanker.NONE || fused.isEmpty()) {
            return fused;
        }
        Map<String, Set<String>> successorsOf = new HashMap<>();
        boolean any = false;
        for (FusedCandidate c : fused) {
            String doc = StoredChunk.documentIdOf(c.id());
            Set<String> successors =
                    successorsOf.computeIfAbsent(doc, d -> graph.successors(namespace, d));
            any |= !successors.isEmpty();
        }
        if (!any) {
            return fused;
        }
        Set<String> present = new HashSet<>();
        fused.forEach(c -> present.add(StoredChunk.documentIdOf(c.id())));
        List<FusedCandidate> out = new ArrayList<>(fused.size());
        Map<String, List<FusedCandidate>> held = new LinkedHashMap<>();
        Set<String> emitted = new HashSet<>();
        for (FusedCandidate c : fused) {
            String doc = StoredChunk.documentIdOf(c.id());
            Optional<String> waitingFor =
                    successorsOf.get(doc).stream()
                            .filter(s -> present.contains(s) && !emitted.contains(s))
                            .sorted()
                            .findFirst();
            if (waitingFor.isPresent()) {
                held.computeIfAbsent(waitingFor.get(), k -> new ArrayList<>()).add(c);
                synchronized (explanations) {
                    explanations.merge(
                            c.id(),
                            "superseded by " + waitingFor.get() + ": placed below it",
                            (a, b) -> b + "\n" + a);
                }
                continue;
            }
            out.add(c);
            if (emitted.add(doc)) {
                release(doc, held, emitted, out);
            }
        }
        held.values().forEach(out::addAll);
        return out;
    }

    private static void release(
            String doc,
            Map<String, List<FusedCandidate>> held,
            Set<String> emitted,
            List<FusedCandidate> out) {
        List<FusedCandidate> waiting = held.remove(doc);
        if (waiting == null) {
            return;
        }
        for (FusedCandidate c : waiting) {
            out.add(c);
            String d = StoredChunk.documentIdOf(c.id());
            if (emitted.add(d)) {
                release(d, held, emitted, out);
            }
        }
    }
}
