package dev.cairn.judge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.store.Authority;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClaimExtractorTest {

    private static final List<Evidence> EVIDENCE =
            List.of(
                    new Evidence(
                            "chunk-a", "Alpha.", "Search Reindex Runbook", Authority.AUTHORITATIVE),
                    new Evidence("chunk-b", "Beta.", "Storage Notes", Authority.SUPPORTING),
                    Evidence.of("chunk-c", "Gamma."));

    private static List<Claim> claims(String answer) {
        return ClaimExtractor.extract(answer, EVIDENCE);
    }

    @Test
    void numericCitationsAreOneBasedIndicesIntoTheEvidence() {
        List<Claim> claims = claims("The cluster has three nodes [1]. Backups run nightly [2, 3].");

        assertThat(claims)
                .extracting(Claim::text)
                .containsExactly("The cluster has three nodes.", "Backups run nightly.");
        assertThat(claims).extracting(Claim::cited).containsExactly(List.of(0), List.of(1, 2));
    }

    @Test
    void rangeCitationsExpand() {
        assertThat(claims("Backups run nightly [1-3].").getFirst().cited())
                .containsExactly(0, 1, 2);
    }

    @Test
    void evidenceIdCitationsResolveCaseInsensitively() {
        Claim claim = claims("Backups run nightly [chunk-b][CHUNK-C].").getFirst();

        assertThat(claim.cited()).containsExactly(1, 2);
        assertThat(claim.text()).isEqualTo("Backups run nightly.");
    }

    @Test
    void sourceTitleCitationsResolveCaseInsensitively() {
        Claim claim =
                claims(
                                "Reindex after upgrades (source: search reindex runbook; Source: storage notes).")
                        .getFirst();

        assertThat(claim.cited()).containsExactly(0, 1);
        assertThat(claim.text()).isEqualTo("Reindex after upgrades.");
    }

    @Test
    void citationsThatNameNoEvidenceAreKeptAsUnresolved() {
        Claim claim = claims("Backups run nightly [7] [chunk-z].").getFirst();

        assertThat(claim.cited()).isEmpty();
        assertThat(claim.unresolved()).containsExactly("7", "chunk-z");
    }

    @Test
    void citationAfterTheFullStopBelongsToThePreviousSentence() {
        List<Claim> claims = claims("Backups run nightly. [2] Restores take an hour. [3]");

        assertThat(claims).extracting(Claim::cited).containsExactly(List.of(1), List.of(2));
    }

    @Test
    void markdownLinksAndProseInBracketsAreNotCitations() {
        Claim claim =
                claims("See [the runbook](https://x.example) for details [see below].").getFirst();

        assertThat(claim.cited()).isEmpty();
        assertThat(claim.unresolved()).isEmpty();
    }

    @Test
    void abbreviationsDecimalsAndVersionsDoNotSplitSentences() {
        List<Claim> claims =
                claims(
                        "Use a client, e.g. the CLI, at v1.2.3 or later. The ratio is 3.5 vs. 2 in the U.S. today."
                                + " Dr. Smith approved it.");

        assertThat(claims)
                .extracting(Claim::text)
                .containsExactly(
                        "Use a client, e.g. the CLI, at v1.2.3 or later.",
                        "The ratio is 3.5 vs. 2 in the U.S. today.",
                        "Dr. Smith approved it.");
    }

    @Test
    void listItemsAreSeparateClaimsAndHeadingsQuestionsAndHedgesAreNot() {
        List<Claim> claims =
                claims(
                        """
                        ## Steps
                        Here is what to do:
                        1. Drain the node [1].
                        2. Restart the service [1].
                        - Check the health endpoint.
                        Is that all? I could not find anything about rollbacks.
                        """);

        assertThat(claims)
                .extracting(Claim::text)
                .containsExactly(
                        "Drain the node.", "Restart the service.", "Check the health endpoint.");
    }

    @Test
    void numberedStepsAndImperativesMakeAnAnswerProcedural() {
        assertThat(ClaimExtractor.isProcedural("1. Drain the node.\n2. Restart it.")).isTrue();
        assertThat(ClaimExtractor.isProcedural("Drain the node. Then restart the service."))
                .isTrue();
        assertThat(ClaimExtractor.isProcedural("The cluster has three nodes.")).isFalse();
    }
}
