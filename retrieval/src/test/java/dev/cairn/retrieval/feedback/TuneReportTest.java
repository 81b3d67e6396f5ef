package dev.cairn.retrieval.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** Reports are stored as JSON: those written before issue 42 have no held-back groups. */
class TuneReportTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aReportStoredBeforeTheGroupsReadsWithEmptyGroups() throws Exception {
        String stored =
                "{\"trainQueries\":315,\"heldOutQueries\":79,\"judgments\":400,"
                        + "\"baselineVersion\":0,\"baselineNdcg10\":0.7909,"
                        + "\"adaptedNdcg10\":0.8138,\"activated\":true,\"denseWeight\":3.0,"
                        + "\"trainMillis\":15000}";

        TuneReport report = JSON.readValue(stored, TuneReport.class);

        assertThat(report.heldOutQueries()).isEqualTo(79);
        assertThat(report.adaptedNdcg10()).isEqualTo(0.8138);
        assertThat(report.seenDocuments()).isEqualTo(HeldBackScore.NONE);
        assertThat(report.unseenDocuments()).isEqualTo(HeldBackScore.NONE);
        assertThat(report.noiseBand()).isZero();
        assertThat(report.denseWeightQueries()).isZero();
    }

    @Test
    void aReportRoundTripsWithItsGroups() throws Exception {
        TuneReport report =
                new TuneReport(
                        643,
                        164,
                        919,
                        0,
                        0.7839,
                        0.7916,
                        true,
                        2.0,
                        64,
                        30144,
                        new HeldBackScore(42, 0.7948, 0.8218, 0.0154),
                        new HeldBackScore(122, 0.7802, 0.7813, 0.0075),
                        0.0075);

        String json = JSON.writeValueAsString(report);

        assertThat(JSON.readValue(json, TuneReport.class)).isEqualTo(report);
        assertThat(JSON.readTree(json).path("unseenDocuments").has("gain")).isFalse();
        TuneReport rejected = report.withActivated(false);
        assertThat(rejected.activated()).isFalse();
        assertThat(rejected.withActivated(true)).isEqualTo(report);
    }
}
