package dev.cairn.retrieval.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tuning split: a document-disjoint hold-out beside a query hold-out, and each held-back query
 * classed by whether a training query judged one of its relevant documents.
 */
class JudgmentSplitTest {

    static final long SEED = 42;

    /**
     * 400 queries over 250 documents, as SciFact's judgments are shaped: most queries judge one
     * document relevant, some two, and many documents are judged by several queries.
     */
    static Map<String, Map<String, Integer>> judgments(long seed) {
        Random random = new Random(seed);
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        for (int q = 0; q < 400; q++) {
            Map<String, Integer> docs = new LinkedHashMap<>();
            docs.put("doc-" + random.nextInt(250), 1);
            if (random.nextInt(5) == 0) {
                docs.put("doc-" + random.nextInt(250), 2);
            }
            if (random.nextInt(4) == 0) {
                docs.put("doc-" + random.nextInt(250), 0); // judged not relevant
            }
            judged.put("query " + q, docs);
        }
        return judged;
    }

    @Test
    void noRelevantDocumentOfAnUnseenQueryIsATrainingPositive() {
        for (long seed = 1; seed <= 5; seed++) {
            Map<String, Map<String, Integer>> judged = judgments(seed);
            JudgmentSplit split = JudgmentSplit.of(judged, 0.2, seed);
            Set<String> trained =
                    JudgmentSplit.relevantDocuments(
                            split.train().stream().map(judged::get).toList());

            for (String q : split.heldUnseen()) {
                assertThat(JudgmentSplit.relevantDocuments(List.of(judged.get(q))))
                        .as("seed %d, %s", seed, q)
                        .doesNotContainAnyElementsOf(trained);
            }
            for (String q : split.heldSeen()) {
                assertThat(JudgmentSplit.sharesRelevantDocument(judged.get(q), trained))
                        .as("seed %d, %s", seed, q)
                        .isTrue();
            }
        }
    }

    @Test
    void everyJudgedQueryIsInExactlyOnePartAndAboutTheHoldOutShareIsHeldBack() {
        Map<String, Map<String, Integer>> judged = judgments(SEED);

        JudgmentSplit split = JudgmentSplit.of(judged, 0.2, SEED);

        List<String> all = new ArrayList<>(split.train());
        all.addAll(split.held());
        assertThat(all).hasSize(400).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).isEqualTo(judged.keySet());
        // a tenth of the documents takes its queries along (about a tenth, more for shared ones),
        // then a tenth of the rest
        assertThat(split.held().size()).as(split.toString()).isBetween(60, 110);
        assertThat(split.heldUnseen()).hasSizeGreaterThan(20);
        assertThat(split.heldSeen()).hasSizeGreaterThan(20);
    }

    @Test
    void theSplitIsFixedByTheSeedAndChangesWithIt() {
        Map<String, Map<String, Integer>> judged = judgments(SEED);

        assertThat(JudgmentSplit.of(judged, 0.2, SEED))
                .isEqualTo(JudgmentSplit.of(judged, 0.2, SEED));
        assertThat(JudgmentSplit.of(judged, 0.2, SEED + 1).held())
                .isNotEqualTo(JudgmentSplit.of(judged, 0.2, SEED).held());
    }

    @Test
    void aQueryWhoseDocumentIsHeldBackIsNeverTrainedEvenIfAnotherOfItsDocumentsIsSeen() {
        // one document shared by every query keeps them all "seen"; each query has one own document
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        for (int q = 0; q < 20; q++) {
            judged.put("q" + q, Map.of("shared", 1, "own-" + q, 1));
        }

        JudgmentSplit split = JudgmentSplit.of(judged, 0.2, SEED);

        // 21 documents, a tenth of them held back: 2, each with every query judging it
        Set<String> trained =
                JudgmentSplit.relevantDocuments(split.train().stream().map(judged::get).toList());
        assertThat(split.held()).hasSizeGreaterThanOrEqualTo(2);
        for (String q : split.held()) {
            // its own document was held back, or the query itself was: never a training positive
            assertThat(trained).doesNotContain("own-" + q.substring(1));
        }
        if (trained.contains("shared")) {
            assertThat(split.heldUnseen()).isEmpty(); // every held-back query shares "shared"
        }
    }

    @Test
    void queriesWithoutARelevantDocumentAreLeftOutAndTheShareIsChecked() {
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        judged.put("nothing relevant", Map.of("d1", 0));
        judged.put("one relevant", Map.of("d2", 1));
        judged.put("another", Map.of("d3", 1));

        JudgmentSplit split = JudgmentSplit.of(judged, 0.2, SEED);

        assertThat(split.train().size() + split.held().size()).isEqualTo(2);
        assertThat(split.held()).hasSize(1); // at least one document is always held back
        assertThat(split.heldUnseen()).hasSize(1);
        assertThatThrownBy(() -> JudgmentSplit.of(judged, 1.0, SEED))
                .hasMessage("illegal holdOut: 1.0, must be in (0, 1)");
    }
}
