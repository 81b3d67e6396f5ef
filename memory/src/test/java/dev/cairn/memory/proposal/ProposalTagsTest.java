package dev.cairn.memory.proposal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProposalTagsTest {

    @Test
    void takesTheFirstTagsLineOnlyNormalisedInOrderWithoutDuplicates() {
        assertThat(
                        ProposalTags.fromDescription(
                                "Seen twice.\n  - tags: Deploys, #Change-Freeze; deploys  ops\nTags: later"))
                .containsExactly("deploys", "change-freeze", "ops");
    }

    @Test
    void ignoresTagsMentionedElsewhere() {
        assertThat(ProposalTags.fromDescription("These Tags: are not a line start")).isEmpty();
        assertThat(ProposalTags.fromDescription("")).isEmpty();
        assertThat(ProposalTags.fromDescription("Tags:")).isEmpty();
    }
}
