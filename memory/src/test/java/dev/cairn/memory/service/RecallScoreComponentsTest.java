package dev.cairn.memory.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.memory.MemoryType;
import dev.cairn.memory.RecallBoost;
import dev.cairn.memory.RecallScorer;
import dev.cairn.memory.ScoreComponents;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.TranscriptLine;
import dev.cairn.memory.TrigramEmbeddingModel;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.LearnedFusion;
import dev.cairn.retrieval.feedback.QueryAdapter;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteGuard;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recalled memory's components explain its score (docs/memory.md, "What a recall score is made
 * of"): {@code score = 0.55 relevance + 0.10 importance + 0.20 confidence + typeBonus + w recency}
 * (w = 0 by default), and {@code relevance = match + the sum of boosts}, each boost what its rule
 * adds to the relevance it was given, in the order recall gives them (period, time, session,
 * answer, burst, speaker, facet, judged, brief). Checked on every memory of real recalls (default
 * configuration, hybrid, the trigram model) in which every boost fires.
 */
class RecallScoreComponentsTest {

    static final int DIMS = 256;

    /** "in March" names the month every turn is written in. */
    static final Instant T0 = MemoryServiceTest.T0;

    static final double EXACT = 1e-12;

    @TempDir Path temp;
    Store store;
    MemoryService service;
    final MemoryServiceConfig config =
            MemoryServiceConfig.defaults()
                    .withMaintenance(
                            MemoryServiceConfig.Maintenance.defaults().withInterval(Duration.ZERO));

    @BeforeEach
    void open() {
        store = Store.embedded(temp.resolve("data"), StoreConfig.defaults().withDimensions(DIMS));
        store.createNamespace("team", "");
        service =
                MemoryService.create(
                        store,
                        new TrigramEmbeddingModel(DIMS),
                        LexicalIndex.inMemory(LexicalConfig.DEFAULTS),
                        WriteGuard.standard(),
                        config,
                        new MutableClock(T0.plus(Duration.ofDays(3))));
    }

    @AfterEach
    void close() {
        service.close();
        store.close();
    }

    String say(String session, String speaker, int second, String text) {
        return MemoryServiceTest.say(service, session, speaker, second, text);
    }

    /** The judged-relevant prior of the namespace's active recall adaptation. */
    JudgedPrior prior;

    @Test
    void everyBoostShowsByNameAndTheComponentsMakeTheScore() {
        String painted = say("s1", "Mel", 0, "I painted the lake yesterday");
        String reply = say("s1", "Caro", 1, "lovely colours");
        String hills = say("s2", "Caro", 2, "I painted hills in the park");
        String green = say("s2", "Mel", 3, "the hills were green");
        String lisbon = say("s3", "Bea", 4, "bom dia from lisbon, Bea here");
        String gym = say("s4", "Bea", 5, "Bea had a long week at the gym, ugh");
        // a question the reply answers without the query's words
        String asking = say("s6", "Caro", 7, "did Mel paint the lake in March?");
        String answer = say("s6", "Mel", 8, "yes, at dawn");
        // an active recall adaptation whose training questions judged two of them relevant
        prior = new JudgedPrior(0.02, Map.of(hills, 1, lisbon, 3));
        service.adaptations()
                .add(
                        "team",
                        QueryAdapter.identity(DIMS),
                        1.0,
                        prior,
                        LearnedFusion.NONE,
                        MemoryAdaptationTest.won());
        // names a month, asks when, names Mel; a list question naming Bea and a facet (places)
        RecallResult when =
                service.recall(
                        RecallRequest.of("team", "When did Mel paint in March?")
                                .withThreshold(-1.0));
        RecallResult countries =
                service.recall(
                        RecallRequest.of("team", "Which countries has Bea visited?")
                                .withThreshold(-1.0));

        Map<String, ScoreComponents> a = byId(when);
        assertThat(a).containsKeys(painted, reply, hills, green);
        assertThat(a.get(painted).boosts())
                .containsOnlyKeys(
                        RecallBoost.PERIOD,
                        RecallBoost.TIME,
                        RecallBoost.SESSION,
                        RecallBoost.SPEAKER,
                        RecallBoost.BRIEF);
        assertThat(a.get(answer).boosts()).containsKey(RecallBoost.ANSWER);
        assertThat(a.get(asking).boosts()).doesNotContainKey(RecallBoost.ANSWER);
        assertThat(a.get(hills).boosts()).doesNotContainKey(RecallBoost.SPEAKER);
        assertThat(a.get(green).boosts()).containsKey(RecallBoost.SPEAKER);
        Map<String, ScoreComponents> b = byId(countries);
        assertThat(b.get(lisbon).boosts()).containsKeys(RecallBoost.FACET, RecallBoost.SPEAKER);
        assertThat(b.get(gym).boosts()).doesNotContainKey(RecallBoost.FACET);
        assertThat(b.get(lisbon).boosts()).containsKey(RecallBoost.JUDGED);
        assertThat(b.get(gym).boosts()).doesNotContainKey(RecallBoost.JUDGED);
        // ten words and more keep their relevance
        String boat = say("s5", "Mel", 6, "we painted the old boat house by the lake in March");
        RecallResult house =
                service.recall(
                        RecallRequest.of("team", "Who painted the boat house?")
                                .withThreshold(-1.0));
        assertThat(byId(house).get(boat).boosts()).doesNotContainKey(RecallBoost.BRIEF);

        Set<RecallBoost> fired = EnumSet.noneOf(RecallBoost.class);
        for (RecallResult r : List.of(when, countries)) {
            boolean list = r == countries;
            for (ScoredMemory m : r.memories()) {
                explainsItsScore(m);
                followsEachBoostsRule(m, r, list);
                fired.addAll(m.components().boosts().keySet());
            }
        }
        assertThat(fired).containsExactlyInAnyOrder(RecallBoost.values());
    }

    /** The score is the weighted sum of the components, with the configured weights. */
    private void explainsItsScore(ScoredMemory m) {
        RecallScorer.Weights w = config.recall().scoreWeights();
        ScoreComponents c = m.components();
        assertThat(m.score())
                .as("score of %s", m.memory().content())
                .isCloseTo(
                        w.relevance() * c.relevance()
                                + w.importance() * c.importance()
                                + w.recency() * c.recency()
                                + w.confidence() * c.confidence()
                                + c.typeBonus(),
                        within(EXACT));
        assertThat(c.typeBonus()).isEqualTo(w.bonus(MemoryType.EVENT));
        assertThat(match(c)).as("the match of %s", m.memory().content()).isPositive();
    }

    /**
     * Each boost is what its rule adds to the relevance the memory had before it (its match and the
     * boosts given earlier); all are scaled alike, so the ratios hold after scaling.
     */
    private void followsEachBoostsRule(ScoredMemory m, RecallResult r, boolean list) {
        Map<RecallBoost, Double> boosts = m.components().boosts();
        String what = m.memory().content();
        for (var e : boosts.entrySet()) {
            double before = before(m.components(), e.getKey());
            double added = e.getValue();
            switch (e.getKey()) {
                case PERIOD ->
                        assertThat(added)
                                .as("period of %s", what)
                                .isCloseTo(config.boosts().periodBonus() * before, within(EXACT));
                case TIME ->
                        assertThat(added)
                                .as("time of %s", what)
                                .isCloseTo(config.boosts().timeBonus() * before, within(EXACT));
                case SPEAKER ->
                        assertThat(added)
                                .as("speaker of %s", what)
                                .isCloseTo(
                                        (list
                                                        ? config.boosts().listSpeakerBonus()
                                                        : config.boosts().speakerBonus())
                                                * before,
                                        within(EXACT));
                case FACET ->
                        assertThat(added)
                                .as("facet of %s", what)
                                .isCloseTo(config.boosts().facetBonus() * before, within(EXACT));
                case JUDGED ->
                        // weight x n / (n + 1): 0.02 x 3/4 for lisbon, 0.02 x 1/2 for hills
                        assertThat(added)
                                .as("judged of %s", what)
                                .isPositive()
                                .isCloseTo(prior.lift(m.id()) * before, within(EXACT));
                case BRIEF -> {
                    // a turn of n < words words loses discount x (words - n) / words
                    int n = TranscriptLine.last(what).words();
                    MemoryServiceConfig.BriefTurns brief = config.boosts().briefTurns();
                    assertThat(n).isLessThan(brief.words());
                    assertThat(added)
                            .as("brief of %s (%d words)", what, n)
                            .isNegative()
                            .isCloseTo(
                                    -brief.discount()
                                            * (brief.words() - n)
                                            / brief.words()
                                            * before,
                                    within(EXACT));
                }
                case SESSION -> {
                    // a share of the best relevance among its session's found turns, itself too
                    double best =
                            r.memories().stream()
                                    .filter(o -> sameSession(o, m))
                                    .mapToDouble(o -> before(o.components(), RecallBoost.SESSION))
                                    .max()
                                    .orElseThrow();
                    assertThat(added)
                            .as("session of %s", what)
                            .isCloseTo(config.boosts().sessionShare() * best, within(EXACT));
                }
                case ANSWER -> {
                    // raised to a share of the relevance of the other speaker's question before it
                    double raised = before + added;
                    assertThat(r.memories())
                            .as("the question whose share lifted %s", what)
                            .anySatisfy(
                                    o -> {
                                        assertThat(sameSession(o, m)).isTrue();
                                        assertThat(TranscriptLine.last(o.memory().content()).asks())
                                                .isTrue();
                                        assertThat(o.memory().scope().userId())
                                                .isNotEqualTo(m.memory().scope().userId());
                                        assertThat(raised)
                                                .isCloseTo(
                                                        config.boosts().answerShare()
                                                                * before(
                                                                        o.components(),
                                                                        RecallBoost.ANSWER),
                                                        within(EXACT));
                                    });
                }
                case BURST -> {
                    // raised to the relevance of a found brief turn of its session, itself brief
                    double raised = before + added;
                    MemoryServiceConfig.BriefTurns brief = config.boosts().briefTurns();
                    assertThat(TranscriptLine.last(what).words()).isLessThan(brief.words());
                    assertThat(added).as("burst of %s", what).isPositive();
                    assertThat(r.memories())
                            .as("the brief turn whose match lifted %s", what)
                            .anySatisfy(
                                    o -> {
                                        assertThat(sameSession(o, m)).isTrue();
                                        assertThat(
                                                        TranscriptLine.last(o.memory().content())
                                                                .words())
                                                .isLessThan(brief.words());
                                        assertThat(raised)
                                                .isCloseTo(
                                                        before(o.components(), RecallBoost.BURST),
                                                        within(EXACT));
                                    });
                }
            }
        }
    }

    /** How well the memory matched the query: its relevance without the boosts. */
    private static double match(ScoreComponents c) {
        return c.relevance() - c.boosts().values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The relevance before {@code boost} was given: the match and the boosts given earlier. */
    private static double before(ScoreComponents c, RecallBoost boost) {
        double before = match(c);
        for (var e : c.boosts().entrySet()) {
            if (e.getKey().compareTo(boost) < 0) {
                before += e.getValue();
            }
        }
        return before;
    }

    private static boolean sameSession(ScoredMemory a, ScoredMemory b) {
        return a.memory().scope().sessionName().equals(b.memory().scope().sessionName());
    }

    private static Map<String, ScoreComponents> byId(RecallResult r) {
        Map<String, ScoreComponents> out = new java.util.HashMap<>();
        r.memories().forEach(m -> out.put(m.id(), m.components()));
        return out;
    }
}
