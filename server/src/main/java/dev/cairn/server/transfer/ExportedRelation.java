package dev.cairn.server.transfer;

import dev.cairn.graph.NodeKind;
import dev.cairn.graph.NodeRef;
import dev.cairn.graph.Relation;
import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.RelationCopy;
import java.time.Instant;

/**
 * A relation created through {@code POST relations} as one line of the export file: its ends as
 * stored (kind and id), its type's wire name, confidence and time.
 */
record ExportedRelation(
        String type,
        String id,
        NodeKind fromKind,
        String from,
        NodeKind toKind,
        String to,
        String relationType,
        double confidence,
        Instant createdAt) {

    static final String TYPE = "relation";

    static ExportedRelation of(RelationCopy r) {
        Relation relation = r.relation();
        return new ExportedRelation(
                TYPE,
                r.id(),
                relation.from().kind(),
                relation.from().id(),
                relation.to().kind(),
                relation.to().id(),
                relation.type().wireName(),
                relation.confidence(),
                r.createdAt());
    }

    /**
     * The relation this line describes.
     *
     * @throws IllegalArgumentException (or NullPointerException) naming what is missing or illegal
     */
    RelationCopy copy() {
        return new RelationCopy(
                id,
                new Relation(
                        new NodeRef(fromKind, from),
                        new NodeRef(toKind, to),
                        RelationType.parse(relationType),
                        confidence),
                createdAt);
    }
}
