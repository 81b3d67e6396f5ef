package dev.cairn.server;

import dev.cairn.graph.EntityGraph;
import dev.cairn.graph.GraphRelation;
import dev.cairn.graph.NodeKind;
import dev.cairn.graph.NodeRef;
import dev.cairn.graph.RelationType;
import dev.cairn.judge.ContradictionSource;
import dev.cairn.judge.ContradictsRelation;
import dev.cairn.judge.Evidence;
import dev.cairn.retrieval.store.StoredChunk;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The judge's {@code contradicts} relations, read from the entity graph. A relation between two
 * documents becomes one between every pair of evidence items taken from them (an evidence id is a
 * chunk id {@code doc#n} or a document id); a relation between two entities becomes one between
 * their names, which the judge matches in claim and evidence text. A relation between a document
 * and an entity has no counterpart in the judge's rules and is left out. Thread-safe: the graph is.
 */
final class GraphContradictions implements ContradictionSource {

    private final EntityGraph graph;

    GraphContradictions(EntityGraph graph) {
        this.graph = graph;
    }

    @Override
    public List<ContradictsRelation> relations(String namespace, List<Evidence> evidence) {
        List<GraphRelation> contradicts = graph.relations(namespace, RelationType.CONTRADICTS);
        if (contradicts.isEmpty()) {
            return List.of();
        }
        Map<String, List<String>> evidenceByDocument = new LinkedHashMap<>();
        for (Evidence e : evidence) {
            evidenceByDocument
                    .computeIfAbsent(StoredChunk.documentIdOf(e.id()), d -> new ArrayList<>())
                    .add(e.id());
        }
        Set<ContradictsRelation> out = new LinkedHashSet<>();
        for (GraphRelation r : contradicts) {
            NodeRef from = r.from();
            NodeRef to = r.to();
            if (from.kind() == NodeKind.DOCUMENT && to.kind() == NodeKind.DOCUMENT) {
                for (String a : evidenceByDocument.getOrDefault(from.id(), List.of())) {
                    for (String b : evidenceByDocument.getOrDefault(to.id(), List.of())) {
                        out.add(new ContradictsRelation(a, b));
                    }
                }
            } else if (from.kind() == NodeKind.ENTITY && to.kind() == NodeKind.ENTITY) {
                Optional<String> a = name(namespace, from.id());
                Optional<String> b = name(namespace, to.id());
                if (a.isPresent() && b.isPresent() && !a.get().equalsIgnoreCase(b.get())) {
                    out.add(new ContradictsRelation(a.get(), b.get()));
                }
            }
        }
        return List.copyOf(out);
    }

    private Optional<String> name(String namespace, String entityId) {
        return graph.entity(namespace, entityId).map(d -> d.entity().name());
    }
}
