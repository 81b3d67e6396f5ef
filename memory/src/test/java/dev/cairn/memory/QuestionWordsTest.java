package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuestionWordsTest {

    @Test
    void aQuestionKeepsOnlyTheWordsOfWhatItAsks() {
        assertThat(QuestionWords.drop("What does Melanie do to destress?").split("\\W+"))
                .containsExactly("", "Melanie", "to", "destress");
        assertThat(QuestionWords.drop("When did John have a party with veterans?").split("\\W+"))
                .containsExactly("", "John", "a", "party", "with", "veterans");
        assertThat(QuestionWords.drop("What kind of car does Evan drive?").split("\\W+"))
                .containsExactly("", "of", "car", "Evan", "drive");
    }

    @Test
    void wordsThatOnlyContainAQuestionWordStay() {
        assertThat(QuestionWords.drop("Whatever happened to the showhouse?"))
                .isEqualTo("Whatever happened to the showhouse?");
        assertThat(QuestionWords.drop("dowel, canvas and whisk"))
                .isEqualTo("dowel, canvas and whisk");
    }

    @Test
    void aQuestionOfNothingButQuestionWordsIsKeptWhole() {
        assertThat(QuestionWords.drop("Why? How?")).isEqualTo("Why? How?");
        assertThat(QuestionWords.drop("How are you?").split("\\W+")).containsExactly("", "you");
        assertThat(QuestionWords.drop("")).isEmpty();
    }
}
