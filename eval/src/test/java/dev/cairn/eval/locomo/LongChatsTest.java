package dev.cairn.eval.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The project's three chats of over a thousand turns (LoCoMo's format). Real messaging-app chats
 * run past 1,500 turns in one conversation, while the other sets stop at 684, so a question's
 * answer is one turn among well over a thousand:
 *
 * <ul>
 *   <li>{@code long-running.json}, the fourth kind: two friends texting over about fourteen months,
 *       about 1,700 mostly short informal turns;
 *   <li>{@code household.json}, the fifth kind: a couple sharing a house texting over about a year
 *       while they renovate it, one of them changes jobs and a parent moves nearby; about 1,200
 *       turns of medium length, mostly logistics (bills with amounts, tradespeople and relatives by
 *       first name, appointments that move, decisions taken over several sessions and settled in a
 *       short reply). It exists so that choices made on the first are checked on turns of another
 *       length and subject;
 *   <li>{@code family-help.json}, the sixth kind: a daughter and her recently retired, widowed
 *       father texting over about ten months, about 1,200 turns, mostly his how-to questions
 *       answered in short steps, amid news (his knee, hobbies, a fostered dog, a trip) that recurs
 *       and changes.
 * </ul>
 *
 * What makes each set that kind of conversation is checked here, so an edit that loses it fails
 * here rather than silently in the numbers.
 */
class LongChatsTest {

    /** A long chat: its file, its one sample, and the bounds its sessions keep. */
    enum LongChat {
        LONG_RUNNING("long-running.json", "run-a1", 1500, 1800, 60, 80, 5, 60, 365, 500),
        HOUSEHOLD("household.json", "house-a1", 1100, 1400, 35, 50, 15, 60, 300, 400),
        FAMILY_HELP("family-help.json", "help-a1", 1000, 1300, 35, 50, 10, 55, 270, 340);

        final String file;
        final String sampleId;
        final long minTurns, maxTurns, minSessions, maxSessions;
        final long minSessionTurns, maxSessionTurns, minDays, maxDays;

        LongChat(
                String file,
                String sampleId,
                long minTurns,
                long maxTurns,
                long minSessions,
                long maxSessions,
                long minSessionTurns,
                long maxSessionTurns,
                long minDays,
                long maxDays) {
            this.file = file;
            this.sampleId = sampleId;
            this.minTurns = minTurns;
            this.maxTurns = maxTurns;
            this.minSessions = minSessions;
            this.maxSessions = maxSessions;
            this.minSessionTurns = minSessionTurns;
            this.maxSessionTurns = maxSessionTurns;
            this.minDays = minDays;
            this.maxDays = maxDays;
        }

        Locomo.Conversation read() throws Exception {
            List<Locomo.Conversation> all = ChatSets.read(file);
            assertThat(all).extracting(Locomo.Conversation::sampleId).containsExactly(sampleId);
            return all.get(0);
        }
    }

    @ParameterizedTest
    @EnumSource(LongChat.class)
    void oneConversationOfOverAThousandTurnsInDatedSessions(LongChat chat) throws Exception {
        Locomo.Conversation c = chat.read();

        assertThat((long) c.turns().size()).isBetween(chat.minTurns, chat.maxTurns);
        Map<Integer, List<Locomo.Turn>> sessions = ChatSets.sessions(c);
        assertThat((long) sessions.size())
                .as("sessions")
                .isBetween(chat.minSessions, chat.maxSessions);
        assertThat(sessions.values())
                .allSatisfy(
                        s ->
                                assertThat((long) s.size())
                                        .as("turns of session " + s.get(0).session())
                                        .isBetween(chat.minSessionTurns, chat.maxSessionTurns));
        assertThat(c.turns())
                .allSatisfy(t -> assertThat(t.at()).isAfter(Instant.parse("2023-01-01T00:00:00Z")));
        Instant previous = null;
        for (List<Locomo.Turn> s : sessions.values()) {
            Instant at = s.get(0).at();
            if (previous != null) {
                assertThat(at).as("session " + s.get(0).session()).isAfter(previous);
            }
            previous = at;
        }
        Instant first = sessions.values().iterator().next().get(0).at();
        assertThat(Duration.between(first, previous).toDays())
                .as("days spanned")
                .isBetween(chat.minDays, chat.maxDays);
        ChatSets.assertNumberedInSessions(c);
        assertThat(c.turns())
                .allSatisfy(t -> assertThat(t.speaker()).isIn(c.speakerA(), c.speakerB()));
    }

    @ParameterizedTest
    @EnumSource(LongChat.class)
    void eightyQuestionsOfEveryKindWhoseEvidenceNamesAFewTurns(LongChat chat) throws Exception {
        Locomo.Conversation c = chat.read();
        Map<String, Locomo.Turn> byId = ChatSets.byId(c);

        assertThat(c.questions()).hasSize(80);
        for (Locomo.Question q : c.questions()) {
            assertThat(q.evidence()).as(q.question()).hasSizeBetween(1, 5).doesNotHaveDuplicates();
            assertThat(byId.keySet()).as(q.question()).containsAll(q.evidence());
        }
        Map<Integer, Long> byCategory =
                c.questions().stream()
                        .collect(
                                Collectors.groupingBy(
                                        Locomo.Question::category, Collectors.counting()));
        assertThat(byCategory).containsOnlyKeys(1, 2, 3, 4);
        assertThat(byCategory.get(1)).as("multi-hop").isBetween(25L, 35L);
        assertThat(byCategory.get(2)).as("temporal").isBetween(15L, 25L);
        assertThat(byCategory.get(3)).as("open-domain").isBetween(5L, 15L);
        assertThat(byCategory.get(4)).as("single-hop").isBetween(15L, 25L);
    }

    @ParameterizedTest
    @EnumSource(LongChat.class)
    void multiHopQuestionsGatherTurnsFromSeveralSessions(LongChat chat) throws Exception {
        Locomo.Conversation c = chat.read();
        Map<String, Locomo.Turn> byId = ChatSets.byId(c);
        for (Locomo.Question q : c.questions()) {
            if (q.category() == 1) {
                assertThat(ChatSets.evidenceSessions(q, byId))
                        .as(q.question())
                        .hasSizeGreaterThanOrEqualTo(2);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(LongChat.class)
    void evidenceIsSpreadOverEachThirdOfTheChat(LongChat chat) throws Exception {
        Locomo.Conversation c = chat.read();
        Map<String, Locomo.Turn> byId = ChatSets.byId(c);
        List<Integer> order = List.copyOf(ChatSets.sessions(c).keySet());
        Map<Integer, Long> byThird =
                c.questions().stream()
                        .flatMap(q -> q.evidence().stream())
                        .map(byId::get)
                        .filter(Objects::nonNull)
                        .collect(
                                Collectors.groupingBy(
                                        t -> order.indexOf(t.session()) * 3 / order.size(),
                                        Collectors.counting()));
        long all = byThird.values().stream().mapToLong(Long::longValue).sum();
        for (int third = 0; third < 3; third++) {
            assertThat(byThird.getOrDefault(third, 0L) * 100)
                    .as("evidence turns in third " + (third + 1))
                    .isGreaterThanOrEqualTo(20L * all);
        }
    }

    @ParameterizedTest
    @EnumSource(LongChat.class)
    void speakerLabelsAreHandlesThatQuestionsDoNotUse(LongChat chat) throws Exception {
        Locomo.Conversation c = chat.read();
        // handles such as "hattie.v" or "dev_rao"; in the text and questions they are "Hattie",
        // "Solly", "Nee", "devvy"
        assertThat(List.of(c.speakerA(), c.speakerB()))
                .doesNotHaveDuplicates()
                .allSatisfy(h -> assertThat(h).matches("[a-z0-9]+[._][a-z0-9._]+"));
        assertThat(ChatSets.questionsNamingALabel(c)).isZero();
    }

    @Test
    void theLongRunningChatsTurnsAreMostlyShortWithSomeLongOnes() throws Exception {
        List<Integer> words = words(LongChat.LONG_RUNNING.read());
        assertThat(words.stream().filter(w -> w <= 25).count() * 100)
                .as("turns of at most 25 words")
                .isGreaterThanOrEqualTo(60L * words.size());
        assertThat(words.stream().filter(w -> w >= 40).count())
                .as("turns of at least 40 words")
                .isGreaterThanOrEqualTo(15L);
    }

    @Test
    void theHouseholdChatsTurnsAreMostlyOfMediumLengthWithSomeLongOnes() throws Exception {
        List<Integer> words = words(LongChat.HOUSEHOLD.read());
        int n = words.size();
        double median =
                n % 2 == 1 ? words.get(n / 2) : (words.get(n / 2 - 1) + words.get(n / 2)) / 2.0;
        assertThat(median).as("median words a turn").isBetween(10.0, 18.0);
        assertThat(words.stream().filter(w -> w < 4).count() * 100)
                .as("turns of under 4 words")
                .isLessThan(15L * n);
        assertThat(words.stream().filter(w -> w >= 40).count())
                .as("turns of at least 40 words")
                .isGreaterThanOrEqualTo(40L);
    }

    /** Each turn's words, fewest first. */
    private static List<Integer> words(Locomo.Conversation c) {
        return c.turns().stream().map(t -> ChatSets.words(t.text())).sorted().toList();
    }
}
