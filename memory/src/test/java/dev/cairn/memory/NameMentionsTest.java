package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.NameMentions.Kind;
import dev.cairn.memory.NameMentions.Mention;
import org.junit.jupiter.api.Test;

class NameMentionsTest {

    @Test
    void greetingsThanksAndCommasAddressAName() {
        assertThat(NameMentions.of("Hey Mel! Good to see you!"))
                .containsExactly(new Mention("", "mel", Kind.ADDRESSED));
        assertThat(NameMentions.of("thanks so much, Bea 🙏"))
                .containsExactly(new Mention("", "bea", Kind.ADDRESSED));
        assertThat(NameMentions.of("Segun, you're a legend"))
                .containsExactly(new Mention("", "segun", Kind.ADDRESSED));
        // a chat's lower case counts when the greeting closes on the name
        assertThat(NameMentions.of("morning fahim!"))
                .containsExactly(new Mention("", "fahim", Kind.ADDRESSED));
        assertThat(NameMentions.of("TOMEK how was it"))
                .isEmpty(); // no greeting, no comma: no address
        assertThat(NameMentions.of("AAAAAAA BEA!!!!!")).isEmpty();
    }

    @Test
    void aNewSentenceAfterAGreetingAndCommonWordsAreNoNames() {
        assertThat(NameMentions.of("Thanks! Books, movies and walks fire me up")).isEmpty();
        assertThat(NameMentions.of("thanks for the books")).isEmpty();
        assertThat(NameMentions.of("hey there, love you too")).isEmpty();
        assertThat(NameMentions.of("hi guys!")).isEmpty();
        assertThat(NameMentions.of("Yes, Monday works")).isEmpty();
    }

    @Test
    void aTranscriptLineIsSaidByItsLabel() {
        assertThat(NameMentions.of("Caroline: Hey Mel!\nMelanie: hi Caroline, how are you?"))
                .containsExactly(
                        new Mention("Caroline", "mel", Kind.ADDRESSED),
                        new Mention("Melanie", "caroline", Kind.ADDRESSED));
    }

    @Test
    void aSpeakerIntroducingThemselvesNamesThemselves() {
        assertThat(NameMentions.of("hi, my name is Priya."))
                .containsExactly(new Mention("", "priya", Kind.INTRODUCED));
        assertThat(NameMentions.of("this is Tom here"))
                .containsExactly(new Mention("", "tom", Kind.INTRODUCED));
        assertThat(NameMentions.of("I'm Dima, nice to meet you"))
                .containsExactly(new Mention("", "dima", Kind.INTRODUCED));
        assertThat(NameMentions.of("I'm Italian.")).isEmpty();
    }
}
