package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.eval.beir.Qrels;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code cairn eval beir --tune-qrels} scores the queries apart by whether the tuning judgments
 * judged one of their relevant documents relevant.
 */
class EvalBeirDocumentGroupsTest {

    @Test
    void aScoredQueryIsSeenOnlyWhenATuningQueryJudgedOneOfItsRelevantDocumentsRelevant() {
        Map<String, Map<String, Integer>> tuning = new LinkedHashMap<>();
        tuning.put("t1", Map.of("popular", 1, "judged-irrelevant", 0));
        tuning.put("t2", Map.of("other", 2));
        Map<String, Map<String, Integer>> scored = new LinkedHashMap<>();
        scored.put("s1", Map.of("popular", 1)); // seen
        scored.put("s2", Map.of("fresh", 1, "other", 1)); // seen through one of two
        scored.put("s3", Map.of("judged-irrelevant", 1)); // judged, but not relevant: unseen
        scored.put("s4", Map.of("fresh", 1, "popular", 0)); // only its irrelevant one: unseen

        var groups = EvalBeirCommand.documentGroups(new Qrels(scored), new Qrels(tuning));

        assertThat(groups.get(EvalBeirCommand.SEEN_DOCS)).containsExactly("s1", "s2");
        assertThat(groups.get(EvalBeirCommand.UNSEEN_DOCS)).containsExactly("s3", "s4");
    }
}
