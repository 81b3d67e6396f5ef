package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn eval beir} on a corpus whose ids are not URL path segments (DBpedia-entity's hold
 * {@code /}): evaluated under mapped ids, said so, and written back as the corpus's ids.
 */
class EvalBeirMappedIdsTest {

    @TempDir Path dir;

    @Test
    void idsWithASlashAreEvaluatedAndTheRunFileKeepsThem() throws IOException {
        Path beir = dir.resolve("slashes");
        Files.createDirectories(beir.resolve("qrels"));
        Files.writeString(
                beir.resolve("corpus.jsonl"),
                """
                {"_id":"<dbpedia:Rock/Band>","title":"Loud guitars","text":"A quartet of amplifiers, drums and a shouting singer on tour."}
                {"_id":"<dbpedia:Tide/Pool>","title":"Tide pools","text":"Anemones and small crabs live in rock pools left by the falling tide."}
                {"_id":"plain-1","title":"Bread","text":"Sourdough rises slowly overnight in a cool kitchen."}
                """,
                StandardCharsets.UTF_8);
        Files.writeString(
                beir.resolve("queries.jsonl"),
                """
                {"_id":"q1","text":"amplifiers drums singer on tour"}
                {"_id":"q2","text":"crabs in rock pools at low tide"}
                """,
                StandardCharsets.UTF_8);
        Files.writeString(
                beir.resolve("qrels/test.tsv"),
                "query-id\tcorpus-id\tscore\nq1\t<dbpedia:Rock/Band>\t1\nq2\t<dbpedia:Tide/Pool>\t1\n",
                StandardCharsets.UTF_8);
        Path work = dir.resolve("work");

        IngestFixtures.Outcome run =
                IngestFixtures.run(
                        "eval",
                        "beir",
                        beir.toString(),
                        "--mode",
                        "bm25",
                        "--work",
                        work.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("note: 2 judged document ids hold '/'");
        // both relevant documents ranked first: nDCG@10 1.0
        assertThat(run.out()).containsPattern("bm25\\s+1\\.0000");
        String trec = Files.readString(work.resolve("run-bm25.trec"));
        assertThat(trec)
                .contains("q1 Q0 <dbpedia:Rock/Band> 1 ")
                .contains("q2 Q0 <dbpedia:Tide/Pool> 1 ")
                .doesNotContain("%2F");
    }
}
