package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TranscriptLineTest {

    @Test
    void aLabelledLineIsSplitIntoItsLabelAndWhatItSays() {
        assertThat(TranscriptLine.of("Faheem R.: hey fahim!"))
                .isEqualTo(new TranscriptLine("Faheem R.", "hey fahim!"));
        assertThat(TranscriptLine.of("lvcia.o: ok")).isEqualTo(new TranscriptLine("lvcia.o", "ok"));
        // no label: a colon without a space after it (a time, a link) is part of what it says
        assertThat(TranscriptLine.of("meet at 10:30 tomorrow"))
                .isEqualTo(new TranscriptLine("", "meet at 10:30 tomorrow"));
        assertThat(TranscriptLine.of("see https://example.org for the menu").label()).isEmpty();
    }

    @Test
    void theLastLineIsTheMemorysOwnTurn() {
        String exchange = "Bea: what do you do on weekends?\ntomasz_k: idk its fun\n";
        assertThat(TranscriptLine.last(exchange))
                .isEqualTo(new TranscriptLine("tomasz_k", "idk its fun"));
        assertThat(TranscriptLine.last("just one line"))
                .isEqualTo(new TranscriptLine("", "just one line"));
    }

    @Test
    void wordsCountLettersAndDigitsNotPlaceholdersOrEmoji() {
        assertThat(TranscriptLine.of("R: did what 😂").words()).isEqualTo(2);
        assertThat(TranscriptLine.of("Bee: [image]").words()).isZero();
        assertThat(TranscriptLine.of("Bee: [image] look what i made lol").words()).isEqualTo(5);
        assertThat(TranscriptLine.of("T: it's 3.4kg, can't believe it").words()).isEqualTo(6);
        assertThat(TranscriptLine.of("T: AAAAAAA!!!").words()).isEqualTo(1);
        assertThat(TranscriptLine.of("T: kraków was INCREDIBLE").words()).isEqualTo(3);
    }

    @Test
    void aLineAsksWhenItsLastMarkIsAQuestionMark() {
        assertThat(TranscriptLine.of("Bea: did you end up booking the cottage?").asks()).isTrue();
        // emoji, placeholders and spaces after it do not end the question
        assertThat(TranscriptLine.of("R: how was lisbon?? 😍").asks()).isTrue();
        assertThat(TranscriptLine.of("R: how was lisbon? 👍🏽 ").asks()).isTrue();
        assertThat(TranscriptLine.of("R: is this the one? [image]").asks()).isTrue();
        assertThat(TranscriptLine.of("Mei: 東京はどうだった？").asks()).isTrue();
        // a question asked in passing is not what the turn is about
        assertThat(TranscriptLine.of("T: how are you? anyway the boiler man came").asks())
                .isFalse();
        assertThat(TranscriptLine.of("T: WHAT?!").asks()).isFalse();
        assertThat(TranscriptLine.of("T: [image]").asks()).isFalse();
        assertThat(TranscriptLine.of("T: ").asks()).isFalse();
    }
}
