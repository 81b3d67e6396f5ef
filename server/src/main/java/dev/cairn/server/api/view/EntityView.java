package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cairn.graph.DocumentGraph;
import dev.cairn.graph.EntityDetail;
import dev.cairn.graph.EntitySummary;
import dev.cairn.graph.GraphRelation;
import java.util.List;

/** An entity of the graph as listed; {@link Detail} adds mentions and relations. */
public record EntityView(String id, String name, String kind, List<String> aliases, int degree) {

    public static EntityView of(EntitySummary e) {
        return new EntityView(e.id(), e.name(), e.kind().wireName(), e.aliases(), e.degree());
    }

    /**
     * {@code GET entities/{id}}, and each item of {@code GET entities?relations=N}: the entity's
     * strongest relations, at most {@code N}, of {@code relationCount}.
     */
    public record Detail(
            @JsonUnwrapped EntityView entity,
            int mentionedBy,
            int relationCount,
            List<Relation> relations) {

        /** With every relation. */
        public static Detail of(EntityDetail d) {
            return of(d, Integer.MAX_VALUE);
        }

        public static Detail of(EntityDetail d, int maxRelations) {
            return new Detail(
                    EntityView.of(d.entity()),
                    d.mentionedBy(),
                    d.relations().size(),
                    d.relations().stream()
                            .limit(maxRelations)
                            .map(r -> Relation.of(r, null))
                            .toList());
        }
    }

    /** {@code GET documents/{id}/graph}: the entities a document mentions and its relations. */
    public record DocumentGraphView(
            String documentId, List<EntityView> entities, List<Relation> relations) {

        public static DocumentGraphView of(String documentId, DocumentGraph graph) {
            return new DocumentGraphView(
                    documentId,
                    graph.entities().stream().map(EntityView::of).toList(),
                    graph.relations().stream().map(r -> Relation.of(r, null)).toList());
        }
    }

    /** A relation between two nodes; {@code confidence} only in the answer of creating one. */
    public record Relation(
            String from,
            String to,
            String type,
            double weight,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double confidence) {

        public static Relation of(GraphRelation r, Double confidence) {
            return new Relation(
                    r.from().toString(),
                    r.to().toString(),
                    r.type().wireName(),
                    r.weight(),
                    confidence);
        }
    }
}
