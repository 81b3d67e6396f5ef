package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InformalTextTest {

    @Test
    void stretchedWordsShorthandAndMisspellingsAreWrittenOut() {
        assertThat(InformalText.normalize("sooo tired, bday party tmrw!! definately going"))
                .isEqualTo("so tired, birthday party tomorrow!! definitely going");
        assertThat(InformalText.normalize("FAYYYYY omg")).isEqualTo("FAY omg");
        assertThat(InformalText.normalize("been 2wks, u ok?")).isEqualTo("been 2 weeks, you ok?");
        assertThat(InformalText.normalize("saw it yday")).contains("yesterday");
    }

    @Test
    void ordinaryTextLabelsAndDoubledLettersAreKept() {
        String plain = "R: the cool book was good, see you at 10";
        assertThat(InformalText.normalize(plain)).isSameAs(plain);
        assertThat(TimeMentions.statesTime(InformalText.normalize("went there yday"))).isTrue();
        assertThat(Facet.told(InformalText.normalize("his bday cake"))).contains(Facet.FOOD);
    }
}
