package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SpeakerQueryTest {

    @Test
    void aQueryAsksForSeveralThingsWithAPluralAfterWhatOrAListWordOrHowMany() {
        assertThat(SpeakerQuery.of("What books has Melanie read?").asksForSeveral()).isTrue();
        assertThat(SpeakerQuery.of("What European countries has Maria been to?").asksForSeveral())
                .isTrue();
        assertThat(SpeakerQuery.of("Which shelters does Maria volunteer at?").asksForSeveral())
                .isTrue();
        assertThat(SpeakerQuery.of("In what ways is Caroline taking part?").asksForSeveral())
                .isTrue();
        assertThat(SpeakerQuery.of("How many tournaments has Nate won?").asksForSeveral()).isTrue();
        assertThat(SpeakerQuery.of("  What activities does Melanie do?").asksForSeveral()).isTrue();
    }

    @Test
    void thePerfectWhichOfAndAPluralAfterAPossessiveAskForSeveral() {
        // what gathered over time: "has" is no name ending in s here
        assertThat(SpeakerQuery.of("What has James cooked?").asksForSeveral()).isTrue();
        assertThat(SpeakerQuery.of("Where has Mari lived?").asksForSeveral()).isTrue();
        assertThat(SpeakerQuery.of("Who has come to stay with Mari?").asksForSeveral()).isTrue();
        assertThat(SpeakerQuery.of("Which of Tom's family members are mentioned?").asksForSeveral())
                .isTrue();
        assertThat(SpeakerQuery.of("What are Melanie's pets' names?").asksForSeveral()).isTrue();
        assertThat(SpeakerQuery.of("What is Melanie's pet's name?").asksForSeveral()).isFalse();
        assertThat(SpeakerQuery.of("Where did Mari live?").asksForSeveral()).isFalse();
    }

    @Test
    void aQueryForOneThingDoesNotAskForSeveral() {
        assertThat(SpeakerQuery.of("What does Melanie do to destress?").asksForSeveral()).isFalse();
        assertThat(SpeakerQuery.of("What is Caroline's favourite book?").asksForSeveral())
                .isFalse();
        assertThat(SpeakerQuery.of("What was James doing?").asksForSeveral()).isFalse();
        assertThat(SpeakerQuery.of("When did Caroline go to the support group?").asksForSeveral())
                .isFalse();
        assertThat(SpeakerQuery.of("").asksForSeveral()).isFalse();
    }

    @Test
    void aSingularEndingInSReadsAsAPlural() {
        // the test is a word ending in s, not English grammar: measured so on LoCoMo
        assertThat(SpeakerQuery.of("What class does Melanie take?").asksForSeveral()).isTrue();
    }
}
