package dev.cairn.retrieval;

import dev.cairn.graph.DocumentGraph;
import dev.cairn.graph.EntityDetail;
import dev.cairn.graph.EntityGraph;
import dev.cairn.graph.EntitySummary;
import dev.cairn.graph.RelationType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What a knowledge graph shows of one namespace through its public reads, as lines to compare two
 * graphs by: sizes, every entity with its degree, relations and mentions, every document's part,
 * every relation by type, and the graph signal's ranking of some queries. Orders the graph does not
 * promise (a document's relations) are sorted.
 */
final class GraphImage {

    private GraphImage() {}

    static List<String> of(
            KnowledgeGraph kg, String ns, Collection<String> documentIds, List<String> queries) {
        EntityGraph g = kg.graph();
        List<String> lines = new ArrayList<>();
        lines.add("stats " + g.stats(ns));
        for (EntitySummary e : g.searchEntities(ns, "", 100_000)) {
            lines.add("entity " + e);
            EntityDetail detail = g.entity(ns, e.id()).orElseThrow();
            lines.add("  mentioned by " + detail.mentionedBy());
            detail.relations().stream().map(r -> "  " + r).sorted().forEach(lines::add);
        }
        for (String id : documentIds) {
            DocumentGraph d = g.document(ns, id).orElse(null);
            lines.add("document " + id + (d == null ? " absent" : " mentions " + d.entities()));
            if (d != null) {
                d.relations().stream().map(r -> "  " + r).sorted().forEach(lines::add);
            }
        }
        for (RelationType type : RelationType.values()) {
            g.relations(ns, type).stream().map(r -> "relation " + r).sorted().forEach(lines::add);
        }
        for (String q : queries) {
            lines.add("rank " + q + " " + kg.rank(ns, q, 20).chunks());
        }
        return lines;
    }
}
