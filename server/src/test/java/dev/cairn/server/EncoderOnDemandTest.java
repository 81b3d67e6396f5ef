package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.MemoryServiceConfig;
import dev.cairn.server.transfer.NamespaceExport;
import dev.cairn.store.ForgetRecord;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code cairn export} and {@code cairn forget} open on a data dir ({@link
 * Cairn.EncoderLoading#ON_FIRST_USE}): the store, the knowledge base and the memory service over
 * it, with the encoder's weights never loaded while they export and forget; the first embedding
 * loads them.
 */
class EncoderOnDemandTest {

    @TempDir Path dataDir;

    @Test
    void exportAndForgetNeverLoadTheEncoderAndTheFirstEmbeddingDoes() {
        try (ServerFixture server = new ServerFixture(dataDir)) {
            assertThat(
                            server.call(
                                            "POST",
                                            "/v1/namespaces",
                                            CairnCalls.ADMIN,
                                            "{\"name\":\"house\",\"recallScope\":\"namespace\"}")
                                    .status())
                    .isEqualTo(201);
            for (String[] memory :
                    new String[][] {
                        {"niamh", "The boiler was serviced in March."},
                        {"niamh", "The gutters are cleared every October."},
                        {"dev", "The spare key is with the neighbour at number 12."}
                    }) {
                assertThat(
                                server.call(
                                                "POST",
                                                "/v1/namespaces/house/memories",
                                                CairnCalls.ADMIN,
                                                "{\"type\":\"fact\",\"content\":\""
                                                        + memory[1]
                                                        + "\",\"userId\":\""
                                                        + memory[0]
                                                        + "\"}")
                                        .status())
                        .isEqualTo(201);
            }
        }

        ServerSettings settings = ServerSettings.defaults(dataDir);
        try (Cairn cairn = Cairn.open(settings, Cairn.EncoderLoading.ON_FIRST_USE);
                MemoryService memory = cairn.openMemory(MemoryServiceConfig.defaults())) {
            ByteArrayOutputStream exported = new ByteArrayOutputStream();
            Map<String, Long> counts =
                    new NamespaceExport(cairn.knowledge(), Clock.systemUTC())
                            .write("house", exported);
            ForgetRecord forgotten =
                    new UserForgetting(cairn.knowledge()).forget("house", "niamh", "cli:test");

            assertThat(counts).containsEntry("memory", 3L);
            assertThat(exported.toString(StandardCharsets.UTF_8))
                    .contains("The spare key is with the neighbour at number 12.");
            assertThat(forgotten.counts()).containsEntry("memories", 2L);
            assertThat(cairn.model().id()).isEqualTo("bge-small-en-v1.5");
            assertThat(cairn.encoderLoaded()).isFalse();

            assertThat(cairn.model().embedQuery("where is the spare key?")).hasSize(384);
            assertThat(cairn.encoderLoaded()).isTrue();
        }
    }
}
