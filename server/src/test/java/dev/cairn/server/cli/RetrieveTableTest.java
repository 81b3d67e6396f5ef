package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.http.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The retrieve table shows what explains the ranking and ids that can be copied. */
class RetrieveTableTest {

    private static final String LONG_ID = "platform.runbooks.billing-cert-rotation-2026-q3#12";

    private static JsonNode answer() throws Exception {
        String text =
                "Issue a new certificate from the internal CA: certctl issue billing-api. "
                        .repeat(3);
        return Json.MAPPER.readTree(
                """
                {"traceId":"tr_01abc","plan":"scoped","grounding":0.78,"partial":false,
                 "timings":{"totalMs":41.6},
                 "hits":[
                  {"chunkId":"%s","title":"Rotate","heading":"Rotate > Steps","text":"%s","score":0.0325,
                   "ranks":{"lexical":2,"dense":1}},
                  {"chunkId":"b#0","title":"Other","heading":"","text":"short","score":0.01,
                   "ranks":{"graph":1}}]}
                """
                        .formatted(LONG_ID, text));
    }

    @Test
    void showsTraceIdGraphRankWholeChunkIdsAndASnippet() throws Exception {
        List<String> lines = RetrieveTable.lines(answer(), false);
        assertThat(lines.getFirst())
                .startsWith("trace tr_01abc, plan scoped, grounding 0.78, 42 ms");
        assertThat(lines.get(2)).contains("lex", "dense", "graph", "chunk", "section");
        String first = lines.get(3);
        assertThat(first).contains(LONG_ID).containsPattern("0\\.0325\\s+2\\s+1\\s+-\\s");
        assertThat(lines.get(4)).startsWith("    Issue a new certificate").endsWith("…");
        assertThat(lines.get(4).strip()).hasSize(RetrieveTable.SNIPPET_CHARS);
        assertThat(lines.get(5)).containsPattern("-\\s+-\\s+1\\s+b#0");
        assertThat(first).endsWith("Rotate > Steps");
        assertThat(lines.get(5)).endsWith("Other"); // no heading: the title
    }

    @Test
    void saysWhichSignalsPutTheTopHitFirst() throws Exception {
        assertThat(RetrieveTable.lines(answer(), false).get(1))
                .isEqualTo(
                        "top hit "
                                + LONG_ID
                                + ": put first by dense (ranked lexical #2, dense #1; not found by"
                                + " graph)");
    }

    @Test
    void wideShowsTheWholeText() throws Exception {
        List<String> lines = RetrieveTable.lines(answer(), true);
        assertThat(lines.get(4)).doesNotContain("…").hasSizeGreaterThan(200);
    }

    @Test
    void noHitsSaysSo() throws Exception {
        JsonNode empty =
                Json.MAPPER.readTree(
                        "{\"traceId\":\"t\",\"plan\":\"scoped\",\"grounding\":0,\"timings\":{},"
                                + "\"hits\":[]}");
        assertThat(RetrieveTable.lines(empty, false)).last().isEqualTo("no hits");
    }
}
