package dev.cairn.retrieval.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.store.Identifiers;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BeirIdsTest {

    private static final List<String> AWKWARD =
            List.of(
                    "<dbpedia:Rock/Band>",
                    "a/b/c",
                    "/",
                    "100%_pure",
                    "a%2Fb", // looks encoded already: must not collide with "a/b"
                    "a/b",
                    ".",
                    "..",
                    "%",
                    "%2",
                    "x%");

    @Test
    void idsThatAreAlreadyCairnIdsStayAsTheyAre() {
        for (String id : List.of("4983", "MED-10", "doc.v2", "<dbpedia:Berlin>", "a b")) {
            assertThat(BeirIds.documentId(id)).isEqualTo(id);
            assertThat(BeirIds.mapped(id)).isFalse();
        }
    }

    @Test
    void everyBeirIdMapsToADistinctLegalCairnIdAndBack() {
        Set<String> cairnIds = new HashSet<>();
        for (String id : AWKWARD) {
            String mapped = BeirIds.documentId(id);
            assertThat(Identifiers.isId(mapped)).as("%s -> %s", id, mapped).isTrue();
            assertThat(BeirIds.beirId(mapped)).as(mapped).isEqualTo(id);
            assertThat(cairnIds.add(mapped)).as("distinct: %s", mapped).isTrue();
        }
        assertThat(BeirIds.documentId("<dbpedia:Rock/Band>")).isEqualTo("<dbpedia:Rock%2FBand>");
        assertThat(BeirIds.documentId("a%2Fb")).isEqualTo("a%252Fb");
        assertThat(BeirIds.documentId("..")).isEqualTo("%2E%2E");
    }

    @Test
    void theCorpusReaderGivesTheMappedId() {
        ParsedDocument doc =
                BeirCorpusReader.parseLine(
                        "{\"_id\":\"<dbpedia:Rock/Band>\",\"title\":\"Rock band\",\"text\":\"A"
                                + " band that plays loud guitars.\"}",
                        1);
        assertThat(doc.id()).isEqualTo("<dbpedia:Rock%2FBand>");
    }
}
