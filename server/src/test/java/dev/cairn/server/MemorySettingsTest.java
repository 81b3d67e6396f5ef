package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.service.MemoryServiceConfig;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The brief-turn settings as the server reads them: {@code application.yaml}'s values are the
 * library's defaults (what the evaluations measure is what {@code cairn serve} runs), and an
 * operator's override of each reaches the recall configuration.
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
