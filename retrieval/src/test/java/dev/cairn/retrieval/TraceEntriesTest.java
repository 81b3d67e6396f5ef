package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** A trace's candidates survive their stored form exactly, deflated or as plain JSON. */
class TraceEntriesTest {

    @Test
    void candidatesComeBackAsTheyWere() {
        List<StoredTrace.Entry> entries = candidates(new Random(7), 160);

        byte[] stored = TraceEntries.encode(entries);

        assertThat(TraceEntries.decode(stored)).containsExactlyElementsOf(entries);
    }

    @Test
    void scoresThatAreNotFiniteAndNegativeZeroSurvive() {
        Map<Signal, Double> scores = new EnumMap<>(Signal.class);
        scores.put(Signal.LEXICAL, Double.NaN);
        scores.put(Signal.DENSE, Double.NEGATIVE_INFINITY);
        scores.put(Signal.GRAPH, -0.0);
        StoredTrace.Entry entry =
                new StoredTrace.Entry(
                        0,
                        "c",
                        "d",
                        Double.MIN_VALUE,
                        Map.of(),
                        scores,
                        false,
                        "",
                        "",
                        "",
                        Authority.DEFAULT);

        StoredTrace.Entry back = TraceEntries.decode(TraceEntries.encode(List.of(entry))).get(0);

        assertThat(back.scores().get(Signal.LEXICAL)).isNaN();
        assertThat(back.scores().get(Signal.DENSE)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Double.doubleToRawLongBits(back.scores().get(Signal.GRAPH)))
                .isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat(back.fused()).isEqualTo(Double.MIN_VALUE);
    }

    @Test
    void storedFormIsAFractionOfThePlainJson() throws Exception {
        List<StoredTrace.Entry> entries = candidates(new Random(11), 160);

        byte[] stored = TraceEntries.encode(entries);
        byte[] plain = new ObjectMapper().writeValueAsBytes(entries);

        assertThat(stored.length).isLessThan(plain.length / 3);
    }

    @Test
    void readsThePlainJsonArrayTheMigrationWrote() {
        String json =
                "[{\"position\": 0, \"chunkId\": \"c1\", \"documentId\": \"d1\", \"fused\": 0.03,"
                        + " \"ranks\": {\"LEXICAL\": 1}, \"scores\": {\"LEXICAL\": 4.2},"
                        + " \"selected\": true, \"title\": \"T\", \"heading\": \"H\", \"text\":"
                        + " \"body\", \"authority\": \"SUPPORTING\", \"filteredOut\": false,"
                        + " \"explanation\": \"\", \"graphPath\": []}]";

        assertThat(TraceEntries.decode(json.getBytes(StandardCharsets.UTF_8)))
                .containsExactly(
                        new StoredTrace.Entry(
                                0,
                                "c1",
                                "d1",
                                0.03,
                                Map.of(Signal.LEXICAL, 1),
                                Map.of(Signal.LEXICAL, 4.2),
                                true,
                                "T",
                                "H",
                                "body",
                                Authority.SUPPORTING));
    }

    @Test
    void unreadableBytesAreAStoreError() {
        assertThatThrownBy(() -> TraceEntries.decode(new byte[] {1, 2, 3}))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("candidates are not readable");
        assertThatThrownBy(() -> TraceEntries.decode(deflated("{}")))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("not a JSON array");
        assertThatThrownBy(
                        () ->
                                TraceEntries.decode(
                                        ("[{\"ranks\": {\"NOSUCH\": 1}, \"authority\":"
                                                        + " \"UNVERIFIED\"}]")
                                                .getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("unknown signal: NOSUCH");
    }

    private static byte[] deflated(String text) {
        Deflater deflater = new Deflater();
        deflater.setInput(text.getBytes(StandardCharsets.UTF_8));
        deflater.finish();
        byte[] out = new byte[64];
        int length = deflater.deflate(out);
        deflater.end();
        return Arrays.copyOf(out, length);
    }

    /** Candidates like a retrieve's: a few selected with text, most with ranks and scores only. */
    private static List<StoredTrace.Entry> candidates(Random random, int count) {
        List<StoredTrace.Entry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Map<Signal, Integer> ranks = new EnumMap<>(Signal.class);
            Map<Signal, Double> scores = new EnumMap<>(Signal.class);
            for (Signal signal : Signal.values()) {
                if (random.nextBoolean()) {
                    ranks.put(signal, random.nextInt(200) + 1);
                    scores.put(signal, random.nextDouble() * Math.pow(10, random.nextInt(5) - 2));
                }
            }
            boolean selected = i < 10;
            String doc = "doc-" + random.nextInt(5_000);
            entries.add(
                    new StoredTrace.Entry(
                            i,
                            doc + "#" + random.nextInt(4),
                            doc,
                            1.0 / (60 + i) + random.nextDouble() * 1e-3,
                            ranks,
                            scores,
                            selected,
                            selected ? "Title of " + doc : "",
                            selected ? "Step " + i : "",
                            selected ? "Promote the standby, then repoint DNS. ".repeat(20) : "",
                            Authority.values()[random.nextInt(Authority.values().length)],
                            random.nextInt(10) == 0,
                            i % 7 == 0 ? "weight(text:promote) = " + random.nextDouble() : "",
                            i % 5 == 0
                                    ? List.of(
                                            new GraphContext.TraversedRelation(
                                                    "ledger-db", doc, "governs", 0.8))
                                    : List.of()));
        }
        return entries;
    }
}
