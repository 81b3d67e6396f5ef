package dev.cairn.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A query links to an extracted name in proportion to how few chunks mention it. */
class LinkSpecificityTest {

    static final String NS = "ops";

    /** 200 one-chunk documents: `sharedd` in the first {@code sharedIn}, `rared` in two. */
    static GraphSignal namespace(int sharedIn) {
        EntityGraph graph = EntityGraph.inMemory();
        for (int i = 0; i < 200; i++) {
            StringBuilder text = new StringBuilder("Runbook " + i + ".");
            if (i < sharedIn) {
                text.append(" Restart `sharedd` first.");
            }
            if (i == 7 || i == 8) {
                text.append(" Then check `rared`.");
            }
            graph.ingest(
                    NS,
                    new GraphDocument(
                            "doc-" + i,
                            List.of(),
                            List.of(new GraphDocument.Chunk("doc-" + i + "#0", text.toString())),
                            Map.of()));
        }
        return GraphSignal.create(graph);
    }

    @Test
    void aNameInFewChunksIsFullySpecificAndOneInHalfOfThemIsNotLinked() {
        List<LinkedEntity> linked = namespace(100).link(NS, "sharedd and rared are slow");

        assertThat(linked).extracting(LinkedEntity::id).containsExactly("rared");
        assertThat(linked.getFirst().specificity()).isEqualTo(1.0);
    }

    @Test
    void specificityFallsWithTheShareOfChunksThatMentionTheName() {
        List<Double> specificity = new ArrayList<>();
        for (int sharedIn : new int[] {10, 20, 40}) {
            specificity.add(namespace(sharedIn).link(NS, "sharedd").getFirst().specificity());
        }

        // 5% of the chunks: fully specific; 10%: ln(10)/ln(20); 20%: ln(5)/ln(20).
        assertThat(specificity.get(0)).isEqualTo(1.0);
        assertThat(specificity.get(1)).isCloseTo(Math.log(10) / Math.log(20), within(1e-9));
        assertThat(specificity.get(2)).isCloseTo(Math.log(5) / Math.log(20), within(1e-9));
    }

    @Test
    void aLessSpecificSeedScoresItsChunksLower() {
        GraphResult specific = namespace(10).rank(NS, "sharedd", 5);
        GraphResult common = namespace(40).rank(NS, "sharedd", 5);

        assertThat(common.hits().getFirst().score())
                .isCloseTo(
                        specific.hits().getFirst().score() * Math.log(5) / Math.log(20),
                        within(1e-9));
    }
}
