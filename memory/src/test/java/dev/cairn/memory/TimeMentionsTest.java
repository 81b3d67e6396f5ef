package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TimeMentionsTest {

    @Test
    void aQuestionAsksWhenByWhenWhatYearOrHowLong() {
        assertThat(TimeMentions.asksWhen("When did Caroline go to the LGBTQ support group?"))
                .isTrue();
        assertThat(TimeMentions.asksWhen("In which month did Jon open his studio?")).isTrue();
        assertThat(TimeMentions.asksWhen("What year did Maria start volunteering?")).isTrue();
        assertThat(TimeMentions.asksWhen("How long has Caroline had her friends for?")).isTrue();
        assertThat(TimeMentions.asksWhen("Where did Jon go, and when was that?")).isTrue();

        assertThat(TimeMentions.asksWhen("What did Melanie paint recently?")).isFalse();
        assertThat(TimeMentions.asksWhen("Whenever Jon cooks, what does he make?")).isFalse();
        assertThat(TimeMentions.asksWhen("What day trip did Gina take?")).isFalse();
        assertThat(TimeMentions.asksWhen("On which day did Gina open her store?")).isTrue();
    }

    @Test
    void aTurnStatesATimeByARelativeExpressionADurationAMonthOrAYear() {
        assertThat(TimeMentions.statesTime("I went to a support group yesterday")).isTrue();
        assertThat(TimeMentions.statesTime("we moved here four years ago")).isTrue();
        assertThat(TimeMentions.statesTime("Last weekend we camped by the lake")).isTrue();
        assertThat(TimeMentions.statesTime("the show is next month")).isTrue();
        assertThat(TimeMentions.statesTime("I painted it in 2022")).isTrue();
        assertThat(TimeMentions.statesTime("the race was in October")).isTrue();
        assertThat(TimeMentions.statesTime("see you on Friday!")).isTrue();
        assertThat(TimeMentions.statesTime("I've had them for 3 years now")).isTrue();
        assertThat(TimeMentions.statesTime("we were together for two weeks")).isTrue();

        assertThat(TimeMentions.statesTime("the support group was so powerful")).isFalse();
        assertThat(TimeMentions.statesTime("you may like it, it has 3000 pages")).isFalse();
        assertThat(TimeMentions.statesTime("what a lovely day")).isFalse();
        assertThat(TimeMentions.statesTime("I have 3 dogs and two cats")).isFalse();
    }
}
