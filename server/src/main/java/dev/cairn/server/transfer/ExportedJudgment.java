package dev.cairn.server.transfer;

import dev.cairn.retrieval.feedback.Judgment;
import java.time.Instant;

/** A relevance judgment ({@code POST feedback}) as one line of the export file. */
record ExportedJudgment(
        String type,
        String id,
        String query,
        Judgment.Kind targetKind,
        String targetId,
        int grade,
        Judgment.Source source,
        Instant createdAt) {

    static final String TYPE = "feedback";

    static ExportedJudgment of(Judgment j) {
        return new ExportedJudgment(
                TYPE,
                j.id(),
                j.query(),
                j.target().kind(),
                j.target().id(),
                j.grade(),
                j.source(),
                j.createdAt());
    }

    /**
     * The judgment this line describes.
     *
     * @throws IllegalArgumentException (or NullPointerException) naming what is missing or illegal
     */
    Judgment judgment() {
        return new Judgment(
                id, query, new Judgment.Target(targetKind, targetId), grade, source, createdAt);
    }
}
