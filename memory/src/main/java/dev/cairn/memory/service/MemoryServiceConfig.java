package dev.cairn.memory.service;

import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.RecallScorer;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the memory service (server keys under {@code cairn.memory}), grouped by concern: how
 * writes merge, how recall finds and scores, how recall boosts relevance, what maintenance does,
 * and how much of the heap the memory tables may hold. Each group is a record with {@code
 * defaults()}; a value changes with the group's wither and the group's place here, the one way to
 * change one:
 *
 * <pre>{@code
 * MemoryServiceConfig config = MemoryServiceConfig.defaults();
 * config = config.withMaintenance(config.maintenance().withInterval(Duration.ZERO))
 *         .withBoosts(config.boosts().withSessionShare(0));
 * }</pre>
 *
 * @param lifecycle merge similarity of near-duplicates ({@code merge-similarity}, 0.92)
 * @param recall candidates, hybrid weights, score weights and bookkeeping of a recall
 * @param boosts what lifts a memory's relevance above how well it matches the query
 * @param maintenance the scheduled jobs: per-user cap, interval, trace retention
 * @param residentBytes how large the memory tables in memory may grow together (estimated bytes)
 *     before the least recently used namespaces' tables are dropped; 0 for no bound ({@code
 *     resident-mb}, a quarter of the heap: {@link #defaultResidentBytes()})
 */
public record MemoryServiceConfig(
        MemoryLifecycle.Config lifecycle,
        Recall recall,
        Boosts boosts,
        Maintenance maintenance,
        long residentBytes) {

    public MemoryServiceConfig {
        Objects.requireNonNull(lifecycle, "lifecycle");
        Objects.requireNonNull(recall, "recall");
        Objects.requireNonNull(boosts, "boosts");
        Objects.requireNonNull(maintenance, "maintenance");
        if (residentBytes < 0) {
            throw new IllegalArgumentException(
                    "illegal residentBytes: " + residentBytes + ", must be >= 0 (0: no bound)");
        }
    }

    public static MemoryServiceConfig defaults() {
        return new MemoryServiceConfig(
                MemoryLifecycle.Config.defaults(),
                Recall.defaults(),
                Boosts.defaults(),
                Maintenance.defaults(),
                defaultResidentBytes());
    }

    /**
     * The default bound on the memory tables in memory: a quarter of the heap the JVM may use, so
     * the rest stays for requests, Lucene and the encoder.
     */
    public static long defaultResidentBytes() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    public MemoryServiceConfig withLifecycle(MemoryLifecycle.Config newLifecycle) {
        return new MemoryServiceConfig(newLifecycle, recall, boosts, maintenance, residentBytes);
    }

    public MemoryServiceConfig withRecall(Recall newRecall) {
        return new MemoryServiceConfig(lifecycle, newRecall, boosts, maintenance, residentBytes);
    }

    public MemoryServiceConfig withBoosts(Boosts newBoosts) {
        return new MemoryServiceConfig(lifecycle, recall, newBoosts, maintenance, residentBytes);
    }

    public MemoryServiceConfig withMaintenance(Maintenance newMaintenance) {
        return new MemoryServiceConfig(lifecycle, recall, boosts, newMaintenance, residentBytes);
    }

    public MemoryServiceConfig withResidentBytes(long newResidentBytes) {
        return new MemoryServiceConfig(lifecycle, recall, boosts, maintenance, newResidentBytes);
    }

    /**
     * How a recall finds and scores its candidates.
     *
     * @param candidates BM25 and dense candidates per recall ({@code recall.candidates}, 100)
     * @param lexicalWeight weight of normalised BM25 in hybrid relevance ({@code
     *     recall.lexical-weight}, 0.1)
     * @param denseWeight weight of cosine in hybrid relevance ({@code recall.dense-weight}, 0.9).
     *     Chosen on LoCoMo conv-26 only (197 questions, evidence recall@10 of lexical,dense
     *     0.5,0.5: 0.653; 0.4,0.6: 0.663; 0.3,0.7: 0.676; 0.2,0.8: 0.677; 0.15,0.85: 0.689;
     *     0.1,0.9: 0.715; 0.05,0.95: 0.687). Cosines of bge-small span a narrow band while BM25 /
     *     max spans [0, 1], so a small lexical weight still moves exact-term matches up.
     * @param scoreWeights recall score weights; recency's weight and half-life are {@code
     *     recall.recency-weight} (0) and {@code recall.recency-half-life-days} (120)
     * @param dropQuestionWords whether BM25 leaves out a query's question words and auxiliaries
     *     ({@link dev.cairn.memory.QuestionWords}; {@code recall.drop-question-words}, true):
     *     "what", "did" or "how" are no stopwords to the English analyzer, and in a conversation
     *     they match the turns that ask something rather than those that answer.
     * @param recordRecalls whether recall updates lastRecalledAt and recalledCount
     * @param turnWindows whether a long conversation turn's dense score is the best of its own
     *     cosine and its windows' ({@link dev.cairn.memory.TurnWindows}; {@code
     *     recall.turn-windows}, true); off, recall reads only the memory's own vector (the windows
     *     are still written)
     */
    public record Recall(
            int candidates,
            double lexicalWeight,
            double denseWeight,
            RecallScorer.Weights scoreWeights,
            boolean dropQuestionWords,
            boolean recordRecalls,
            boolean turnWindows) {

        public static final int DEFAULT_CANDIDATES = 100;
        public static final double DEFAULT_LEXICAL_WEIGHT = 0.1;
        public static final double DEFAULT_DENSE_WEIGHT = 0.9;

        public Recall {
            if (candidates < 1 || candidates > 10_000) {
                throw new IllegalArgumentException(
                        "illegal candidates: " + candidates + ", must be in [1, 10000]");
            }
            if (!(lexicalWeight >= 0) || !(denseWeight >= 0) || lexicalWeight + denseWeight <= 0) {
                throw new IllegalArgumentException(
                        "illegal recall weights: lexical "
                                + lexicalWeight
                                + ", dense "
                                + denseWeight
                                + ", must be >= 0 with a positive sum");
            }
            Objects.requireNonNull(scoreWeights, "scoreWeights");
        }

        public static Recall defaults() {
            return new Recall(
                    DEFAULT_CANDIDATES,
                    DEFAULT_LEXICAL_WEIGHT,
                    DEFAULT_DENSE_WEIGHT,
                    RecallScorer.Weights.defaults(),
                    true,
                    true,
                    true);
        }

        public Recall withCandidates(int newCandidates) {
            return new Recall(
                    newCandidates,
                    lexicalWeight,
                    denseWeight,
                    scoreWeights,
                    dropQuestionWords,
                    recordRecalls,
                    turnWindows);
        }

        public Recall withHybridWeights(double newLexicalWeight, double newDenseWeight) {
            return new Recall(
                    candidates,
                    newLexicalWeight,
                    newDenseWeight,
                    scoreWeights,
                    dropQuestionWords,
                    recordRecalls,
                    turnWindows);
        }

        public Recall withScoreWeights(RecallScorer.Weights weights) {
            return new Recall(
                    candidates,
                    lexicalWeight,
                    denseWeight,
                    weights,
                    dropQuestionWords,
                    recordRecalls,
                    turnWindows);
        }

        public Recall withDropQuestionWords(boolean drop) {
            return new Recall(
                    candidates,
                    lexicalWeight,
                    denseWeight,
                    scoreWeights,
                    drop,
                    recordRecalls,
                    turnWindows);
        }

        public Recall withRecordRecalls(boolean record) {
            return new Recall(
                    candidates,
                    lexicalWeight,
                    denseWeight,
                    scoreWeights,
                    dropQuestionWords,
                    record,
                    turnWindows);
        }

        public Recall withTurnWindows(boolean windows) {
            return new Recall(
                    candidates,
                    lexicalWeight,
                    denseWeight,
                    scoreWeights,
                    dropQuestionWords,
                    recordRecalls,
                    windows);
        }
    }

    /**
     * What lifts a memory's relevance above how well it matches the query ({@link
     * dev.cairn.memory.RecallBoost}); each is a share in [0, 1], and 0 turns it off.
     *
     * @param periodBonus relevance bonus, as a share of its relevance, of a memory written in the
     *     calendar period a query names ({@code recall.period-bonus}, 0.2; 0 turns it off). Chosen
     *     on LoCoMo's first five conversations (0.2 and 0.5 alike; see docs/memory.md). Shows as
     *     {@code boosts.period}.
     * @param timeBonus relevance bonus, as a share of its relevance, of a memory that says when
     *     something happened ({@link dev.cairn.memory.TimeMentions}) when the query asks when
     *     ({@code recall.time-bonus}, 0.05; 0 turns it off): the turn that states the event's time
     *     answers "When did ...?", not the turns that only talk about the event. Chosen on LoCoMo's
     *     first five conversations (see docs/memory.md). Shows as {@code boosts.time}.
     * @param sessionShare share of the best relevance among a session's found conversation turns
     *     that each found turn of that session gets on top of its own ({@code
     *     recall.session-share}, 0.3; 0 turns it off): a session whose turns match the query is
     *     about what the query asks, and its other matching turns are likelier answers than equally
     *     matching turns of other sessions. The lift, like the bonuses, is not capped at 1: when a
     *     recall's largest relevance is above 1, all of its relevances are divided by it, so two
     *     strong turns of the best session keep their order instead of tying at 1 (where recency
     *     ordered them). Chosen on LoCoMo's first five conversations (see docs/memory.md). Shows as
     *     {@code boosts.session}.
     * @param answerShare share of a conversation turn's relevance that the other speaker's next
     *     turn in its session gets when the turn ends asking ({@link
     *     dev.cairn.memory.TranscriptLine#asks()}) and the reply was found itself ({@code
     *     recall.answer-share}, 0.95; 0 turns it off): "did you end up booking the cottage?" is
     *     answered by "yes! 3 nights in may", which shares none of the question's words. Replaces
     *     the exchange share, which lifted both neighbours of any turn and held on LoCoMo alone;
     *     chosen on the tuning parts of the five kinds of conversation (see docs/memory.md, "An
     *     answer share"). Shows as {@code boosts.answer}.
     * @param speakerBonus relevance bonus, as a share of its relevance, of a memory of a user the
     *     query names by any of their names ({@link dev.cairn.memory.PersonNames}; {@code
     *     recall.speaker-bonus}, 0.03; 0 turns it off), given after the session lift, whose share
     *     of a session's best turn then holds no speaker bonus: "What does Melanie do to destress?"
     *     is answered by Melanie's turns rather than by the other speaker's replies to her. Chosen
     *     on LoCoMo's first five conversations (see docs/memory.md). Shows as {@code
     *     boosts.speaker}.
     * @param listSpeakerBonus the same bonus, instead of {@code speakerBonus}, when the query asks
     *     for several things ({@code recall.list-speaker-bonus}, 0.15; 0 turns it off): "What
     *     activities does Melanie partake in?" gathers Melanie's own turns from many sessions.
     *     Shows as {@code boosts.speaker} too.
     * @param facetBonus relevance bonus, as a share of its relevance, of a memory that tells of a
     *     facet ({@link dev.cairn.memory.Facet}) that a query asking for several things names
     *     ({@code recall.facet-bonus}, 0.1; 0 turns it off): "Which countries has Bea visited?" is
     *     answered by turns that name Kraków and Utrecht. Chosen before measuring; checked on
     *     LoCoMo's first five conversations and the first half of the project's own chats (see
     *     docs/memory.md). Shows as {@code boosts.facet}.
     * @param briefTurns how much less relevant a conversation turn of few words is ({@code
     *     recall.brief-turn-discount}, 0.3, and {@code recall.brief-turn-words}, 10; see {@link
     *     BriefTurns}). Shows as {@code boosts.brief}, a negative share.
     */
    public record Boosts(
            double periodBonus,
            double timeBonus,
            double sessionShare,
            double answerShare,
            double speakerBonus,
            double listSpeakerBonus,
            double facetBonus,
            BriefTurns briefTurns) {

        public static final double DEFAULT_PERIOD_BONUS = 0.2;
        public static final double DEFAULT_TIME_BONUS = 0.05;
        public static final double DEFAULT_SESSION_SHARE = 0.3;
        public static final double DEFAULT_ANSWER_SHARE = 0.95;
        public static final double DEFAULT_SPEAKER_BONUS = 0.03;
        public static final double DEFAULT_LIST_SPEAKER_BONUS = 0.15;
        public static final double DEFAULT_FACET_BONUS = 0.1;

        public Boosts {
            requireShare("periodBonus", periodBonus);
            requireShare("timeBonus", timeBonus);
            requireShare("sessionShare", sessionShare);
            requireShare("answerShare", answerShare);
            requireShare("speakerBonus", speakerBonus);
            requireShare("listSpeakerBonus", listSpeakerBonus);
            requireShare("facetBonus", facetBonus);
            Objects.requireNonNull(briefTurns, "briefTurns");
        }

        public static Boosts defaults() {
            return new Boosts(
                    DEFAULT_PERIOD_BONUS,
                    DEFAULT_TIME_BONUS,
                    DEFAULT_SESSION_SHARE,
                    DEFAULT_ANSWER_SHARE,
                    DEFAULT_SPEAKER_BONUS,
                    DEFAULT_LIST_SPEAKER_BONUS,
                    DEFAULT_FACET_BONUS,
                    BriefTurns.defaults());
        }

        public Boosts withPeriodBonus(double bonus) {
            return new Boosts(
                    bonus,
                    timeBonus,
                    sessionShare,
                    answerShare,
                    speakerBonus,
                    listSpeakerBonus,
                    facetBonus,
                    briefTurns);
        }

        public Boosts withTimeBonus(double bonus) {
            return new Boosts(
                    periodBonus,
                    bonus,
                    sessionShare,
                    answerShare,
                    speakerBonus,
                    listSpeakerBonus,
                    facetBonus,
                    briefTurns);
        }

        public Boosts withSessionShare(double share) {
            return new Boosts(
                    periodBonus,
                    timeBonus,
                    share,
                    answerShare,
                    speakerBonus,
                    listSpeakerBonus,
                    facetBonus,
                    briefTurns);
        }

        public Boosts withAnswerShare(double share) {
            return new Boosts(
                    periodBonus,
                    timeBonus,
                    sessionShare,
                    share,
                    speakerBonus,
                    listSpeakerBonus,
                    facetBonus,
                    briefTurns);
        }

        /** The bonus of a named person's memory, and of it when the query asks for several. */
        public Boosts withSpeakerBonus(double bonus, double listBonus) {
            return new Boosts(
                    periodBonus,
                    timeBonus,
                    sessionShare,
                    answerShare,
                    bonus,
                    listBonus,
                    facetBonus,
                    briefTurns);
        }

        public Boosts withFacetBonus(double bonus) {
            return new Boosts(
                    periodBonus,
                    timeBonus,
                    sessionShare,
                    answerShare,
                    speakerBonus,
                    listSpeakerBonus,
                    bonus,
                    briefTurns);
        }

        public Boosts withBriefTurns(BriefTurns brief) {
            return new Boosts(
                    periodBonus,
                    timeBonus,
                    sessionShare,
                    answerShare,
                    speakerBonus,
                    listSpeakerBonus,
                    facetBonus,
                    brief);
        }

        private static void requireShare(String name, double value) {
            if (!(value >= 0 && value <= 1)) {
                throw new IllegalArgumentException(
                        "illegal " + name + ": " + value + ", must be in [0, 1]");
            }
        }
    }

    /**
     * A conversation turn that says little is seldom the answer: "lol", "did what 😂", "[image]" or
     * "i have my moments" is a reaction, and the turn it reacts to (which its memory often carries
     * as context, and whose words make it match) holds what was said. A turn whose own line ({@link
     * dev.cairn.memory.TranscriptLine#last}) has fewer than {@code words} words is {@code discount
     * x (words - n) / words} less relevant: a one-word turn loses 0.27 of its relevance at the
     * defaults, a nine-word turn 0.03. In the project's own chats turns of three words or fewer are
     * a third of all turns and 2.4% of the evidence turns, and took 30% of the top-10 places before
     * this discount. Chosen on LoCoMo's tuning half and the own chats' first part (see
     * docs/memory.md).
     *
     * @param discount the share of its relevance a turn of no words loses, in [0, 1); 0 turns it
     *     off
     * @param words turns with at least this many words keep their relevance, >= 1; the same count
     *     decides which turns are brief for {@code bursts} (1: none is)
     * @param bursts whether brief turns share their relevance within a burst: before the discount,
     *     each found brief turn within two turns (either speaker) of one of the five most relevant
     *     found brief turns of a recall is raised to that turn's relevance (which may hold the
     *     session and answer boosts already). In a chat of short messages one thought is sent in
     *     several ("went to oslo for the festival" / "the live show was on thursday night" / "200
     *     people"), and the message that answers shares the question's words less than the one
     *     beside it. A long turn neither gives nor takes. Chosen on the tuning parts of the four
     *     kinds of conversation (see docs/memory.md)
     */
    public record BriefTurns(double discount, int words, boolean bursts) {
        public static final double DEFAULT_DISCOUNT = 0.3;
        public static final int DEFAULT_WORDS = 10;

        /**
         * Whether brief turns of one burst share their best match ({@code recall.brief-bursts},
         * true; {@link dev.cairn.memory.RecallBoost#BURST}).
         */
        public static final boolean DEFAULT_BURSTS = true;

        public BriefTurns {
            if (!(discount >= 0 && discount < 1)) {
                throw new IllegalArgumentException(
                        "illegal brief-turn discount: " + discount + ", must be in [0, 1)");
            }
            if (words < 1 || words > 1000) {
                throw new IllegalArgumentException(
                        "illegal brief-turn words: " + words + ", must be in [1, 1000]");
            }
        }

        public static BriefTurns defaults() {
            return new BriefTurns(DEFAULT_DISCOUNT, DEFAULT_WORDS, DEFAULT_BURSTS);
        }

        /** No discount and no bursts: every turn keeps its relevance. */
        public static BriefTurns off() {
            return new BriefTurns(0, 1, false);
        }

        public BriefTurns withBursts(boolean on) {
            return new BriefTurns(discount, words, on);
        }

        /** Whether a turn whose own line has {@code ownWords} words is brief. */
        public boolean brief(int ownWords) {
            return ownWords < words;
        }

        /** What a turn of {@code ownWords} words keeps of its relevance, in (0, 1]. */
        public double kept(int ownWords) {
            return brief(ownWords) ? 1 - discount * (words - ownWords) / words : 1.0;
        }
    }

    /**
     * The maintenance jobs: TTL to STALE, the per-user cap, embedding repair, the duplicate report
     * and trace retention.
     *
     * @param userCap recallable memories kept per user ({@code maintenance.user-cap}, 2,000)
     * @param interval period of the maintenance jobs, zero disables scheduling ({@code
     *     maintenance.interval-seconds}, 600)
     * @param traceMaxAge retention of stored retrieve traces: each maintenance round deletes those
     *     older than this ({@code maintenance.trace-max-age-days}, 0 = none by age; the trace log
     *     keeps at most {@code cairn.retrieval.trace-retention} per namespace either way)
     */
    public record Maintenance(int userCap, Duration interval, Duration traceMaxAge) {

        public static final int DEFAULT_USER_CAP = 2000;
        public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(10);

        public Maintenance {
            if (userCap < 1) {
                throw new IllegalArgumentException(
                        "illegal userCap: " + userCap + ", must be >= 1");
            }
            Objects.requireNonNull(interval, "interval");
            if (interval.isNegative()) {
                throw new IllegalArgumentException(
                        "illegal maintenanceInterval: " + interval + ", must be >= 0");
            }
            Objects.requireNonNull(traceMaxAge, "traceMaxAge");
            if (traceMaxAge.isNegative()) {
                throw new IllegalArgumentException(
                        "illegal traceMaxAge: "
                                + traceMaxAge
                                + ", must be >= 0 (0 keeps every trace)");
            }
        }

        public static Maintenance defaults() {
            return new Maintenance(DEFAULT_USER_CAP, DEFAULT_INTERVAL, Duration.ZERO);
        }

        public Maintenance withUserCap(int newUserCap) {
            return new Maintenance(newUserCap, interval, traceMaxAge);
        }

        /** Zero: no scheduled runs (tests and the command line run maintenance themselves). */
        public Maintenance withInterval(Duration newInterval) {
            return new Maintenance(userCap, newInterval, traceMaxAge);
        }

        /** Stored traces older than this go in each round; zero keeps them. */
        public Maintenance withTraceMaxAge(Duration newTraceMaxAge) {
            return new Maintenance(userCap, interval, newTraceMaxAge);
        }
    }
}
