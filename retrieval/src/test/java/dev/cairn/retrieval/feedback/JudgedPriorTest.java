package dev.cairn.retrieval.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.fusion.Signal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The judged-relevant prior: its size, its bound, what it re-ranks and how it explains itself. */
class JudgedPriorTest {

    static final int K = 60;
    static final Function<String, String> DOCUMENT = id -> id.substring(0, id.indexOf('#'));

    static FusedCandidate candidate(String id, int lexicalRank, int denseRank) {
        return new FusedCandidate(
                id,
                1.0 / (K + lexicalRank) + 1.0 / (K + denseRank),
                Map.of(Signal.LEXICAL, lexicalRank, Signal.DENSE, denseRank),
                Map.of(Signal.LEXICAL, 10.0 - lexicalRank, Signal.DENSE, 0.9 - denseRank / 100.0));
    }

    @Test
    void theBoostGrowsWithTheJudgingQueriesButStaysBelowWeightOverKPlusOne() {
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        judged.put("q1", Map.of("popular", 1, "once", 2, "not-relevant", 0));
        judged.put("q2", Map.of("popular", 1));
        judged.put("q3", Map.of("popular", 3));
        judged.put("held back", Map.of("unseen", 1));

        JudgedPrior prior = JudgedPrior.of(1.0, judged, List.of("q1", "q2", "q3"));

        assertThat(prior.relevantQueries())
                .containsExactlyInAnyOrderEntriesOf(Map.of("popular", 3, "once", 1));
        assertThat(prior.boost("once", K)).isCloseTo(0.5 / 61, within(1e-15));
        assertThat(prior.boost("popular", K)).isCloseTo(0.75 / 61, within(1e-15));
        assertThat(prior.boost("not-relevant", K)).isZero();
        assertThat(prior.boost("unseen", K)).isZero();
        JudgedPrior often = new JudgedPrior(2.0, Map.of("d", 1_000_000));
        assertThat(often.boost("d", K)).isLessThan(2.0 / 61).isGreaterThan(1.99 / 61);
    }

    @Test
    void aJudgedDocumentRisesAboveACloseCandidateAndSaysWhy() {
        // "ledger#0" is second in both signals, "other#0" first in both: 2/61 against 2/62
        List<FusedCandidate> fused =
                List.of(
                        candidate("other#0", 1, 1),
                        candidate("ledger#0", 2, 2),
                        candidate("third#0", 3, 3));
        JudgedPrior prior = new JudgedPrior(1.0, Map.of("ledger", 1));
        Map<String, String> explanations = new HashMap<>();

        List<FusedCandidate> out = prior.apply(fused, K, DOCUMENT, explanations);

        assertThat(out)
                .extracting(FusedCandidate::id)
                .containsExactly("ledger#0", "other#0", "third#0");
        assertThat(out.getFirst().score()).isCloseTo(2.0 / 62 + 0.5 / 61, within(1e-15));
        assertThat(out.getFirst().ranks())
                .isEqualTo(fused.get(1).ranks()); // the signals' evidence stays
        assertThat(explanations)
                .containsOnlyKeys("ledger#0")
                .containsEntry(
                        "ledger#0",
                        "judged-relevant prior: +0.008197 (document ledger judged relevant for 1"
                                + " training queries, weight 1.00)");
    }

    @Test
    void aFarBehindCandidateIsNotLiftedPastTheLeadersAndNothingNewIsAdded() {
        // 100th in both signals: 2/160 = 0.0125, plus at most 1/61 = 0.0164, < 2/61 = 0.0328
        List<FusedCandidate> fused =
                List.of(candidate("top#0", 1, 1), candidate("ledger#0", 100, 100));
        JudgedPrior prior = new JudgedPrior(1.0, Map.of("ledger", 50, "absent", 3));

        List<FusedCandidate> out = prior.apply(fused, K, DOCUMENT, new HashMap<>());

        assertThat(out).extracting(FusedCandidate::id).containsExactly("top#0", "ledger#0");
    }

    @Test
    void withoutWeightOrDocumentsTheRankingIsReturnedAsIs() {
        List<FusedCandidate> fused = List.of(candidate("a#0", 1, 2), candidate("b#0", 2, 1));
        Map<String, String> explanations = new HashMap<>();

        assertThat(JudgedPrior.NONE.apply(fused, K, DOCUMENT, explanations)).isSameAs(fused);
        assertThat(new JudgedPrior(0, Map.of("b", 2)).apply(fused, K, DOCUMENT, explanations))
                .isSameAs(fused);
        assertThat(explanations).isEmpty();
        assertThatThrownBy(() -> new JudgedPrior(-1, Map.of()))
                .hasMessage("illegal weight: -1.0, must be >= 0 and finite");
        assertThatThrownBy(() -> new JudgedPrior(1, Map.of("d", 0)))
                .hasMessage("illegal relevantQueries of d: 0, must be >= 1");
    }
}
