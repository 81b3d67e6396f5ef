package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.PersonNames.Match;
import dev.cairn.memory.PersonNames.NamedPerson;
import dev.cairn.memory.PersonNames.Via;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PersonNamesTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");

    private static Memory turn(String user, String text, String... tags) {
        return MemoryLifecycle.defaults()
                .create(
                        "m" + Math.abs((user + text).hashCode()),
                        NewMemory.of(
                                        new Scope("ns", user, "", "s1", "", ""),
                                        MemoryType.EVENT,
                                        text)
                                .withTags(List.of(tags)),
                        "",
                        T0);
    }

    private static PersonNames learn(String session, Memory... memories) {
        PersonNames.Builder b = new PersonNames.Builder();
        for (Memory m : memories) {
            b.add(m, session, NameMentions.of(m.content()));
        }
        return b.build();
    }

    @Test
    void aUserIdsWordsNameItsUser() {
        PersonNames names = learn("", turn("tomasz_k", "hello"), turn("Faheem R.", "hi"));

        assertThat(names.named("What does Tomasz like?"))
                .containsExactly(
                        new NamedPerson("tomasz_k", "Tomasz", "tomasz", Via.LABEL, Match.EXACT));
        assertThat(names.named("Where has Fahim travelled?"))
                .containsExactly(
                        new NamedPerson("Faheem R.", "Fahim", "faheem", Via.LABEL, Match.SPELLING));
        // the one-letter part of a label names nobody
        assertThat(names.named("What does K like?")).isEmpty();
    }

    @Test
    void aNameTheOtherSpeakerUsesTwiceBecomesTheirs() {
        Memory[] chat = {
            turn("tomasz_k", "ok my news, i got the job!!!"),
            turn("Bee", "omg congrats Tommy!!"),
            turn("Bee", "thanks Tommy, see you soon"),
            turn("tomasz_k", "bye Bea!")
        };
        PersonNames names = learn("s1", chat);

        assertThat(names.all().get("tomasz_k")).containsEntry("tommy", Via.ADDRESSED);
        assertThat(names.all().get("Bee")).doesNotContainKey("bea"); // said once
        assertThat(names.named("What are Tommy's hobbies?"))
                .extracting(NamedPerson::userId, NamedPerson::via, NamedPerson::match)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "tomasz_k", Via.ADDRESSED, Match.EXACT));
        // "Tom" starts Tomasz (and Tommy)
        assertThat(names.named("What does Tom play?"))
                .extracting(NamedPerson::userId)
                .containsExactly("tomasz_k");
        // outside a session, nobody is known to be addressed
        assertThat(learn("", chat).all().get("tomasz_k")).doesNotContainKey("tommy");
    }

    @Test
    void aNameSaidOfTwoPeopleAlikeBelongsToNeither() {
        PersonNames names =
                learn(
                        "s1",
                        turn("Ann", "hey Sunny!"),
                        turn("Ann", "hey Sunny!!"),
                        turn("Ben", "hey Sunny, you too"),
                        turn("Ben", "thanks Sunny!"));

        assertThat(names.named("What does Sunny do?")).isEmpty();
    }

    @Test
    void aMemoryDeclaresAnAliasWithATag() {
        PersonNames names = learn("", turn("u-42", "likes tea", "alias:Olusegun", "alias:Segun"));

        assertThat(names.named("What does Segun drink?"))
                .containsExactly(
                        new NamedPerson("u-42", "Segun", "segun", Via.DECLARED, Match.EXACT));
        assertThat(names.named("What does Olusegun drink?")).hasSize(1);
    }

    @Test
    void spellingsMatchByConsonantsOrOneEdit() {
        assertThat(PersonNames.skeleton("Faheem")).isEqualTo(PersonNames.skeleton("Fahim"));
        assertThat(PersonNames.skeleton("Aisling")).isEqualTo(PersonNames.skeleton("Ashling"));
        assertThat(PersonNames.skeleton("Dmitry")).isEqualTo(PersonNames.skeleton("Dmitri"));
        assertThat(PersonNames.skeleton("Stephen")).isEqualTo(PersonNames.skeleton("Stephan"));
        assertThat(PersonNames.withinOneEdit("jonas", "joonas")).isTrue();
        assertThat(PersonNames.withinOneEdit("lucas", "lcuas")).isTrue();
        assertThat(PersonNames.withinOneEdit("maria", "mario")).isTrue();
        assertThat(PersonNames.withinOneEdit("maria", "marta")).isTrue();
        assertThat(PersonNames.withinOneEdit("maria", "mark")).isFalse();
    }

    @Test
    void onlyACapitalisedWordMatchesByPrefixOrSpellingUnlessTheQueryHasNoCapitals() {
        PersonNames names = learn("", turn("Arthur", "hello"));

        assertThat(names.named("What art does Mel make?")).isEmpty();
        assertThat(names.named("What does Art make?")).hasSize(1);
        assertThat(names.named("what does art make")).hasSize(1);
    }

    @Test
    void aCommonWordNamesOnlyTheUserItIsTheWholeLabelOf() {
        PersonNames names =
                learn("", turn("Will", "hello"), turn("user-1", "hi"), turn("Ann", "yo"));

        assertThat(names.named("What will Ann do?"))
                .extracting(NamedPerson::userId)
                .containsExactly("Ann", "Will");
        assertThat(names.named("what does the user want")).isEmpty();
    }

    @Test
    void theNamingWordsCanBeLeftOutOfAQuery() {
        PersonNames names = learn("", turn("Rafa", "hola"));
        String query = "What are Rafa's hobbies?";

        assertThat(PersonNames.without(query, names.named(query)).strip())
                .isEqualTo("What are   hobbies?".strip());
        assertThat(PersonNames.without("Rafa?", names.named("Rafa?"))).isEqualTo("Rafa?");
    }
}
