package dev.cairn.server;

import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.service.MemoryServiceConfig;
import io.helidon.config.Config;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;

/**
 * The memory service's settings from the {@code cairn.memory} config node: {@code merge-similarity}
 * (0.92), {@code recall.candidates} (100), {@code recall.lexical-weight} (0.1), {@code
 * recall.dense-weight} (0.9), {@code recall.recency-weight} (0) and {@code
 * recall.recency-half-life-days} (120), the boosts under {@code recall} ({@link
 * MemoryServiceConfig.Boosts}), {@code recall.drop-question-words} (true), {@code
 * recall.turn-windows} (true), {@code maintenance.user-cap} (2000), {@code
 * maintenance.interval-seconds} (600, 0 disables), {@code maintenance.trace-max-age-days} (0, keeps
 * traces by number only), {@code resident-mb} (a quarter of the heap; 0: no bound: how large the
 * namespaces' memory tables in memory may grow before the least recently used are dropped). An
 * absent key keeps its default.
 */
public final class MemorySettings {

    private static final System.Logger LOG = System.getLogger(MemorySettings.class.getName());

    private MemorySettings() {}

    /**
     * Settings that recall no longer has, with why: read nowhere, each is named in one warning so
     * that an operator who set it knows it does nothing.
     */
    static final Map<String, String> REMOVED =
            Map.of(
                    "recall.exchange-share",
                    "recall no longer lifts both neighbours of every found turn, which helped on"
                            + " LoCoMo alone; recall.answer-share lifts the reply to a found"
                            + " question (docs/memory.md, \"The exchange share, removed\")");

    /** Reads {@code cairn.memory} from the given {@code cairn} config node. */
    public static MemoryServiceConfig fromConfig(Config cairn) {
        Config m = cairn.get("memory");
        REMOVED.forEach(
                (key, why) -> {
                    if (m.get(key).exists()) {
                        LOG.log(
                                Level.WARNING,
                                "cairn.memory.{0} is set but no longer read: {1}; remove it",
                                key,
                                why);
                    }
                });
        MemoryServiceConfig.Recall recall = MemoryServiceConfig.Recall.defaults();
        MemoryServiceConfig.Boosts boosts = MemoryServiceConfig.Boosts.defaults();
        MemoryServiceConfig.Maintenance maintenance = MemoryServiceConfig.Maintenance.defaults();
        return new MemoryServiceConfig(
                new MemoryLifecycle.Config(
                        m.get("merge-similarity")
                                .asDouble()
                                .orElse(MemoryLifecycle.DEFAULT_MERGE_SIMILARITY)),
                new MemoryServiceConfig.Recall(
                        m.get("recall.candidates").asInt().orElse(recall.candidates()),
                        m.get("recall.lexical-weight").asDouble().orElse(recall.lexicalWeight()),
                        m.get("recall.dense-weight").asDouble().orElse(recall.denseWeight()),
                        recall.scoreWeights()
                                .withRecency(
                                        m.get("recall.recency-weight")
                                                .asDouble()
                                                .orElse(recall.scoreWeights().recency()),
                                        m.get("recall.recency-half-life-days")
                                                .asDouble()
                                                .orElse(recall.scoreWeights().halfLifeDays())),
                        m.get("recall.drop-question-words")
                                .asBoolean()
                                .orElse(recall.dropQuestionWords()),
                        recall.recordRecalls(),
                        m.get("recall.turn-windows").asBoolean().orElse(recall.turnWindows())),
                new MemoryServiceConfig.Boosts(
                        m.get("recall.period-bonus").asDouble().orElse(boosts.periodBonus()),
                        m.get("recall.time-bonus").asDouble().orElse(boosts.timeBonus()),
                        m.get("recall.session-share").asDouble().orElse(boosts.sessionShare()),
                        m.get("recall.answer-share").asDouble().orElse(boosts.answerShare()),
                        m.get("recall.speaker-bonus").asDouble().orElse(boosts.speakerBonus()),
                        m.get("recall.list-speaker-bonus")
                                .asDouble()
                                .orElse(boosts.listSpeakerBonus()),
                        m.get("recall.facet-bonus").asDouble().orElse(boosts.facetBonus()),
                        new MemoryServiceConfig.BriefTurns(
                                m.get("recall.brief-turn-discount")
                                        .asDouble()
                                        .orElse(boosts.briefTurns().discount()),
                                m.get("recall.brief-turn-words")
                                        .asInt()
                                        .orElse(boosts.briefTurns().words()),
                                m.get("recall.brief-bursts")
                                        .asBoolean()
                                        .orElse(boosts.briefTurns().bursts()))),
                new MemoryServiceConfig.Maintenance(
                        m.get("maintenance.user-cap").asInt().orElse(maintenance.userCap()),
                        Duration.ofSeconds(
                                m.get("maintenance.interval-seconds")
                                        .asLong()
                                        .orElse(maintenance.interval().toSeconds())),
                        Duration.ofDays(
                                m.get("maintenance.trace-max-age-days")
                                        .asLong()
                                        .orElse(maintenance.traceMaxAge().toDays()))),
                m.get("resident-mb")
                        .asLong()
                        .map(mb -> mb << 20)
                        .orElse(MemoryServiceConfig.defaultResidentBytes()));
    }
}
