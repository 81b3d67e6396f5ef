package dev.cairn.judge;

import java.util.List;

/**
 * Where {@code contradicts} relations for a judgement come from: the hook for the entity graph. The
 * server asks it for the relations among the evidence of a request (evidence ids and the entities
 * the evidence mentions) and passes them in {@link JudgeInput#contradicts()}; the server's
 * implementation reads the entity graph. Implementations are thread-safe.
 */
@FunctionalInterface
public interface ContradictionSource {

    /**
     * The {@code contradicts} relations that concern the given evidence in {@code namespace}
     * (between evidence ids, or between entity names the evidence mentions); empty when none.
     */
    List<ContradictsRelation> relations(String namespace, List<Evidence> evidence);

    /** A source that knows no relations. */
    static ContradictionSource none() {
        return (namespace, evidence) -> List.of();
    }
}
