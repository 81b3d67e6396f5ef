package dev.cairn.server;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.RecallScorer;
import dev.cairn.memory.service.MemoryServiceConfig;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

/**
 * The recall settings as the server reads them: {@code application.yaml}'s values are the library's
 * defaults (what the evaluations measure is what {@code cairn serve} runs), and an operator's
 * override of each reaches the recall configuration; a setting recall no longer has is named in a
 * warning.
 */
class MemorySettingsTest {

    @Test
    void applicationYamlGivesTheBriefTurnDefaultsAndItsKeysOverrideThem() {
        // each key is written out in application.yaml, where operators look for it
        Config yaml = config(Map.of()).get("cairn.memory.recall");
        for (String key : List.of("brief-turn-discount", "brief-turn-words", "brief-bursts")) {
            assertThat(yaml.get(key).exists()).as(key).isTrue();
        }
        MemoryServiceConfig.BriefTurns shipped = settings(Map.of()).boosts().briefTurns();
        assertThat(shipped).isEqualTo(MemoryServiceConfig.BriefTurns.defaults());
        assertThat(shipped.bursts()).isTrue();

        MemoryServiceConfig.BriefTurns changed =
                settings(
                                Map.of(
                                        "cairn.memory.recall.brief-bursts", "false",
                                        "cairn.memory.recall.brief-turn-words", "6",
                                        "cairn.memory.recall.brief-turn-discount", "0.2"))
                        .boosts()
                        .briefTurns();
        assertThat(changed).isEqualTo(new MemoryServiceConfig.BriefTurns(0.2, 6, false));
        assertThat(changed.brief(5)).isTrue();
        assertThat(changed.brief(6)).isFalse();
    }

    @Test
    void recencyWeighsNothingAsShippedAndAnOperatorCanWeighItAgain() {
        Config yaml = config(Map.of()).get("cairn.memory.recall");
        for (String key : List.of("recency-weight", "recency-half-life-days")) {
            assertThat(yaml.get(key).exists()).as(key).isTrue();
        }
        RecallScorer.Weights shipped = settings(Map.of()).recall().scoreWeights();
        assertThat(shipped).isEqualTo(RecallScorer.Weights.defaults());
        assertThat(shipped.recency()).isZero();
        assertThat(shipped.halfLifeDays()).isEqualTo(120.0);

        RecallScorer.Weights weighed =
                settings(
                                Map.of(
                                        "cairn.memory.recall.recency-weight", "0.15",
                                        "cairn.memory.recall.recency-half-life-days", "30"))
                        .recall()
                        .scoreWeights();
        assertThat(weighed.recency()).isEqualTo(0.15);
        assertThat(weighed.halfLifeDays()).isEqualTo(30.0);
        // the other weights stay the shipped ones
        assertThat(weighed.relevance()).isEqualTo(shipped.relevance());
        assertThat(weighed.confidence()).isEqualTo(shipped.confidence());
        assertThat(weighed.typeBonus()).isEqualTo(shipped.typeBonus());
    }

    @Test
    void aRemovedSettingIsNamedInOneWarningAndChangesNothing() {
        try (LogCapture logs = new LogCapture(MemorySettings.class.getName())) {
            MemoryServiceConfig shipped = settings(Map.of());
            assertThat(warnings(logs)).isEmpty();

            MemoryServiceConfig withRemoved =
                    settings(Map.of("cairn.memory.recall.exchange-share", "0.95"));
            assertThat(withRemoved).isEqualTo(shipped);
            assertThat(warnings(logs))
                    .singleElement(as(InstanceOfAssertFactories.STRING))
                    .startsWith(
                            "cairn.memory.recall.exchange-share is set but no longer read: recall"
                                    + " no longer lifts both neighbours of every found turn")
                    .endsWith("; remove it");
        }
    }

    private static List<String> warnings(LogCapture logs) {
        return logs.records().stream()
                .filter(r -> r.getLevel() == Level.WARNING)
                .filter(r -> r.getLoggerName().equals(MemorySettings.class.getName()))
                .map(r -> java.text.MessageFormat.format(r.getMessage(), r.getParameters()))
                .toList();
    }

    private static MemoryServiceConfig settings(Map<String, String> overrides) {
        return MemorySettings.fromConfig(config(overrides).get("cairn"));
    }

    private static Config config(Map<String, String> overrides) {
        return Config.builder()
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .sources(
                        ConfigSources.create(overrides),
                        ConfigSources.classpath("application.yaml"))
                .build();
    }
}
