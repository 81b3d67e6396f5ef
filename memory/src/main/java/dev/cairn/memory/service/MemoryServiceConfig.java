package dev.cairn.memory.service;

import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.RecallScorer;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the memory service (server keys under {@code cairn.memory}).
 *
 * @param lifecycle merge similarity of near-duplicates ({@code merge-similarity}, 0.92)
 * @param weights recall score weights
 * @param candidates BM25 and dense candidates per recall ({@code recall.candidates}, 100)
 * @param lexicalWeight weight of normalised BM25 in hybrid relevance ({@code
 *     recall.lexical-weight}, 0.1)
 * @param denseWeight weight of cosine in hybrid relevance ({@code recall.dense-weight}, 0.9).
 *     Chosen on LoCoMo conv-26 only (197 questions, evidence recall@10 of lexical,dense 0.5,0.5:
 *     0.653; 0.4,0.6: 0.663; 0.3,0.7: 0.676; 0.2,0.8: 0.677; 0.15,0.85: 0.689; 0.1,0.9: 0.715;
 *     0.05,0.95: 0.687). Cosines of bge-small span a narrow band while BM25 / max spans [0, 1], so
 *     a small lexical weight still moves exact-term matches up.
 * @param userCap recallable memories kept per user ({@code maintenance.user-cap}, 2,000)
 * @param maintenanceInterval period of the maintenance jobs, zero disables scheduling ({@code
 *     maintenance.interval-seconds}, 600)
 * @param recordRecalls whether recall updates lastRecalledAt and recalledCount
 * @param exchangeShare share of a conversation turn's relevance that the turns right before and
 *     after it in its session get when the other speaker said them and they were found themselves
 *     ({@code recall.exchange-share}, 0.95; 0 turns it off): an exchange spreads over several
 *     turns, and the one that answers often shares few words with the question. Chosen on LoCoMo's
 *     first five conversations; the two conditions come from the project's own chats, where the
 *     turns around an answer are as often the same speaker going on or "WHAT" (see docs/memory.md).
 *     Shows as {@code boosts.exchange} in a recalled memory's components.
 * @param periodBonus relevance bonus, as a share of its relevance, of a memory written in the
 *     calendar period a query names ({@code recall.period-bonus}, 0.2; 0 turns it off). Chosen on
 *     LoCoMo's first five conversations (0.2 and 0.5 alike; see docs/memory.md). Shows as {@code
 *     boosts.period}.
 * @param timeBonus relevance bonus, as a share of its relevance, of a memory that says when
 *     something happened ({@link dev.cairn.memory.TimeMentions}) when the query asks when ({@code
 *     recall.time-bonus}, 0.05; 0 turns it off): the turn that states the event's time answers
 *     "When did ...?", not the turns that only talk about the event. Chosen on LoCoMo's first five
 *     conversations (see docs/memory.md). Shows as {@code boosts.time}.
 * @param sessionShare share of the best relevance among a session's found conversation turns that
 *     each found turn of that session gets on top of its own ({@code recall.session-share}, 0.3; 0
 *     turns it off): a session whose turns match the query is about what the query asks, and its
 *     other matching turns are likelier answers than equally matching turns of other sessions. The
 *     lift, like the bonuses, is not capped at 1: when a recall's largest relevance is above 1, all
 *     of its relevances are divided by it, so two strong turns of the best session keep their order
 *     instead of tying at 1 (where recency ordered them). Chosen on LoCoMo's first five
 *     conversations (see docs/memory.md). Shows as {@code boosts.session}.
 * @param dropQuestionWords whether BM25 leaves out a query's question words and auxiliaries ({@link
 *     dev.cairn.memory.QuestionWords}; {@code recall.drop-question-words}, true): "what", "did" or
 *     "how" are no stopwords to the English analyzer, and in a conversation they match the turns
 *     that ask something rather than those that answer.
 * @param speakerBonus relevance bonus, as a share of its relevance, of a memory of a user the query
 *     names by any of their names ({@link dev.cairn.memory.PersonNames}; {@code
 *     recall.speaker-bonus}, 0.03; 0 turns it off), given after the session lift and the exchange
 *     share so that the neighbours of a named person's turn do not share it: "What does Melanie do
 *     to destress?" is answered by Melanie's turns rather than by the other speaker's replies to
 *     her. Chosen on LoCoMo's first five conversations (see docs/memory.md). Shows as {@code
 *     boosts.speaker}.
 * @param listSpeakerBonus the same bonus, instead of {@code speakerBonus}, when the query asks for
 *     several things ({@code recall.list-speaker-bonus}, 0.15; 0 turns it off): "What activities
 *     does Melanie partake in?" gathers Melanie's own turns from many sessions. Shows as {@code
 *     boosts.speaker} too.
 * @param facetBonus relevance bonus, as a share of its relevance, of a memory that tells of a facet
 *     ({@link dev.cairn.memory.Facet}) that a query asking for several things names ({@code
 *     recall.facet-bonus}, 0.1; 0 turns it off): "Which countries has Bea visited?" is answered by
 *     turns that name Kraków and Utrecht. Chosen before measuring; checked on LoCoMo's first five
 *     conversations and the first half of the project's own chats (see docs/memory.md). Shows as
 *     {@code boosts.facet}.
 * @param traceMaxAge retention of stored retrieve traces: each maintenance round deletes those
 *     older than this ({@code maintenance.trace-max-age-days}, 0 = none by age; the trace log keeps
 *     at most {@code cairn.retrieval.trace-retention} per namespace either way)
 */
public record MemoryServiceConfig(
        MemoryLifecycle.Config lifecycle,
        RecallScorer.Weights weights,
        int candidates,
        double lexicalWeight,
        double denseWeight,
        int userCap,
        Duration maintenanceInterval,
        boolean recordRecalls,
        double exchangeShare,
        double periodBonus,
        double timeBonus,
        double sessionShare,
        boolean dropQuestionWords,
        double speakerBonus,
        double listSpeakerBonus,
        double facetBonus,
        Duration traceMaxAge,
        long residentBytes) {

    public static final int DEFAULT_CANDIDATES = 100;
    public static final double DEFAULT_LEXICAL_WEIGHT = 0.1;
    public static final double DEFAULT_DENSE_WEIGHT = 0.9;
    public static final int DEFAULT_USER_CAP = 2000;
    public static final Duration DEFAULT_MAINTENANCE_INTERVAL = Duration.ofMinutes(10);
    public static final double DEFAULT_EXCHANGE_SHARE = 0.95;
    public static final double DEFAULT_PERIOD_BONUS = 0.2;
    public static final double DEFAULT_TIME_BONUS = 0.05;
    public static final double DEFAULT_SESSION_SHARE = 0.3;
    public static final double DEFAULT_SPEAKER_BONUS = 0.03;
    public static final double DEFAULT_LIST_SPEAKER_BONUS = 0.15;
    public static final double DEFAULT_FACET_BONUS = 0.1;

    /**
     * The default bound on the memory tables in memory: a quarter of the heap the JVM may use, so
     * the rest stays for requests, Lucene and the encoder.
     */
    public static long defaultResidentBytes() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    public MemoryServiceConfig {
        if (residentBytes < 0) {
            throw new IllegalArgumentException(
                    "illegal residentBytes: " + residentBytes + ", must be >= 0 (0: no bound)");
        }
        Objects.requireNonNull(lifecycle, "lifecycle");
        Objects.requireNonNull(weights, "weights");
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
        if (userCap < 1) {
            throw new IllegalArgumentException("illegal userCap: " + userCap + ", must be >= 1");
        }
        Objects.requireNonNull(maintenanceInterval, "maintenanceInterval");
        if (maintenanceInterval.isNegative()) {
            throw new IllegalArgumentException(
                    "illegal maintenanceInterval: " + maintenanceInterval + ", must be >= 0");
        }
        if (!(exchangeShare >= 0 && exchangeShare <= 1)) {
            throw new IllegalArgumentException(
                    "illegal exchangeShare: " + exchangeShare + ", must be in [0, 1]");
        }
        if (!(periodBonus >= 0 && periodBonus <= 1)) {
            throw new IllegalArgumentException(
                    "illegal periodBonus: " + periodBonus + ", must be in [0, 1]");
        }
        if (!(timeBonus >= 0 && timeBonus <= 1)) {
            throw new IllegalArgumentException(
                    "illegal timeBonus: " + timeBonus + ", must be in [0, 1]");
        }
        if (!(sessionShare >= 0 && sessionShare <= 1)) {
            throw new IllegalArgumentException(
                    "illegal sessionShare: " + sessionShare + ", must be in [0, 1]");
        }
        if (!(speakerBonus >= 0 && speakerBonus <= 1)) {
            throw new IllegalArgumentException(
                    "illegal speakerBonus: " + speakerBonus + ", must be in [0, 1]");
        }
        if (!(facetBonus >= 0 && facetBonus <= 1)) {
            throw new IllegalArgumentException(
                    "illegal facetBonus: " + facetBonus + ", must be in [0, 1]");
        }
        Objects.requireNonNull(traceMaxAge, "traceMaxAge");
        if (traceMaxAge.isNegative()) {
            throw new IllegalArgumentException(
                    "illegal traceMaxAge: " + traceMaxAge + ", must be >= 0 (0 keeps every trace)");
        }
        if (!(listSpeakerBonus >= 0 && listSpeakerBonus <= 1)) {
            throw new IllegalArgumentException(
                    "illegal listSpeakerBonus: " + listSpeakerBonus + ", must be in [0, 1]");
        }
    }

    public static MemoryServiceConfig defaults() {
        return new MemoryServiceConfig(
                MemoryLifecycle.Config.defaults(),
                RecallScorer.Weights.defaults(),
                DEFAULT_CANDIDATES,
                DEFAULT_LEXICAL_WEIGHT,
                DEFAULT_DENSE_WEIGHT,
                DEFAULT_USER_CAP,
                DEFAULT_MAINTENANCE_INTERVAL,
                true,
                DEFAULT_EXCHANGE_SHARE,
                DEFAULT_PERIOD_BONUS,
                DEFAULT_TIME_BONUS,
                DEFAULT_SESSION_SHARE,
                true,
                DEFAULT_SPEAKER_BONUS,
                DEFAULT_LIST_SPEAKER_BONUS,
                DEFAULT_FACET_BONUS,
                Duration.ZERO,
                defaultResidentBytes());
    }

    public MemoryServiceConfig withCandidates(int candidates) {
        return copy(c -> c.candidates = candidates);
    }

    public MemoryServiceConfig withHybridWeights(double lexicalWeight, double denseWeight) {
        return copy(
                c -> {
                    c.lexicalWeight = lexicalWeight;
                    c.denseWeight = denseWeight;
                });
    }

    public MemoryServiceConfig withUserCap(int userCap) {
        return copy(c -> c.userCap = userCap);
    }

    public MemoryServiceConfig withMaintenanceInterval(Duration maintenanceInterval) {
        return copy(c -> c.maintenanceInterval = maintenanceInterval);
    }

    public MemoryServiceConfig withRecordRecalls(boolean recordRecalls) {
        return copy(c -> c.recordRecalls = recordRecalls);
    }

    public MemoryServiceConfig withMergeSimilarity(double mergeSimilarity) {
        return copy(c -> c.lifecycle = new MemoryLifecycle.Config(mergeSimilarity));
    }

    public MemoryServiceConfig withExchangeShare(double exchangeShare) {
        return copy(c -> c.exchangeShare = exchangeShare);
    }

    public MemoryServiceConfig withTimeBonus(double timeBonus) {
        return copy(c -> c.timeBonus = timeBonus);
    }

    public MemoryServiceConfig withPeriodBonus(double periodBonus) {
        return copy(c -> c.periodBonus = periodBonus);
    }

    public MemoryServiceConfig withSessionShare(double sessionShare) {
        return copy(c -> c.sessionShare = sessionShare);
    }

    public MemoryServiceConfig withDropQuestionWords(boolean dropQuestionWords) {
        return copy(c -> c.dropQuestionWords = dropQuestionWords);
    }

    public MemoryServiceConfig withSpeakerBonus(double speakerBonus, double listSpeakerBonus) {
        return copy(
                c -> {
                    c.speakerBonus = speakerBonus;
                    c.listSpeakerBonus = listSpeakerBonus;
                });
    }

    public MemoryServiceConfig withFacetBonus(double facetBonus) {
        return copy(c -> c.facetBonus = facetBonus);
    }

    /**
     * Stored traces older than {@code traceMaxAge} go in each maintenance round; zero keeps them.
     */
    public MemoryServiceConfig withTraceMaxAge(Duration traceMaxAge) {
        return copy(c -> c.traceMaxAge = traceMaxAge);
    }

    /**
     * How large the memory tables in memory may grow together (estimated bytes) before the least
     * recently used namespaces' tables are dropped; 0 for no bound.
     */
    public MemoryServiceConfig withResidentBytes(long residentBytes) {
        return copy(c -> c.residentBytes = residentBytes);
    }

    /** The settings a wither changes; every other one is kept. */
    private static final class Draft {
        MemoryLifecycle.Config lifecycle;
        RecallScorer.Weights weights;
        int candidates;
        double lexicalWeight;
        double denseWeight;
        int userCap;
        Duration maintenanceInterval;
        boolean recordRecalls;
        double exchangeShare;
        double periodBonus;
        double timeBonus;
        double sessionShare;
        boolean dropQuestionWords;
        double speakerBonus;
        double listSpeakerBonus;
        double facetBonus;
        Duration traceMaxAge;
        long residentBytes;
    }

    private MemoryServiceConfig copy(java.util.function.Consumer<Draft> change) {
        Draft c = new Draft();
        c.lifecycle = lifecycle;
        c.weights = weights;
        c.candidates = candidates;
        c.lexicalWeight = lexicalWeight;
        c.denseWeight = denseWeight;
        c.userCap = userCap;
        c.maintenanceInterval = maintenanceInterval;
        c.recordRecalls = recordRecalls;
        c.exchangeShare = exchangeShare;
        c.periodBonus = periodBonus;
        c.timeBonus = timeBonus;
        c.sessionShare = sessionShare;
        c.dropQuestionWords = dropQuestionWords;
        c.speakerBonus = speakerBonus;
        c.listSpeakerBonus = listSpeakerBonus;
        c.facetBonus = facetBonus;
        c.traceMaxAge = traceMaxAge;
        c.residentBytes = residentBytes;
        change.accept(c);
        return new MemoryServiceConfig(
                c.lifecycle,
                c.weights,
                c.candidates,
                c.lexicalWeight,
                c.denseWeight,
                c.userCap,
                c.maintenanceInterval,
                c.recordRecalls,
                c.exchangeShare,
                c.periodBonus,
                c.timeBonus,
                c.sessionShare,
                c.dropQuestionWords,
                c.speakerBonus,
                c.listSpeakerBonus,
                c.facetBonus,
                c.traceMaxAge,
                c.residentBytes);
    }
}
