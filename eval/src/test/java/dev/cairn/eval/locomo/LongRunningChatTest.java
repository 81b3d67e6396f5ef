package dev.cairn.eval.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The project's one very long chat ({@code chats/long-running.json}, LoCoMo's format): a fourth
 * kind of conversation. Real messaging-app chats run past 1,500 turns in one conversation, while
 * the other sets stop at 684; this one is two friends texting over about fourteen months, mostly in
 * short informal turns, so a question's answer is one turn among 1,500 or more. What makes the set
 * that kind of conversation is checked here, so an edit that loses it fails here rather than
 * silently in the numbers.
 */
class LongRunningChatTest {

    private static final int SHORT = 25;

    private static Locomo.Conversation chat() throws URISyntaxException {
        List<Locomo.Conversation> all = ChatSets.read("long-running.json");
        assertThat(all).extracting(Locomo.Conversation::sampleId).containsExactly("run-a1");
        return all.get(0);
    }

    @Test
    void oneConversationOfFifteenHundredTurnsInDatedSessions() throws Exception {
        Locomo.Conversation c = chat();

        assertThat(c.turns()).hasSizeBetween(1500, 1800);
        Map<Integer, List<Locomo.Turn>> sessions = sessions(c);
        assertThat(sessions).hasSizeBetween(60, 80);
        assertThat(sessions.values()).allSatisfy(s -> assertThat(s).hasSizeBetween(5, 60));
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
                .isBetween(365L, 500L);
        ChatSets.assertNumberedInSessions(c);
        assertThat(c.turns())
                .allSatisfy(t -> assertThat(t.speaker()).isIn(c.speakerA(), c.speakerB()));
    }

    @Test
    void eightyQuestionsOfEveryKindWhoseEvidenceNamesTurns() throws Exception {
        Locomo.Conversation c = chat();
        Map<String, Locomo.Turn> byId = ChatSets.byId(c);

        assertThat(c.questions()).hasSize(80);
        for (Locomo.Question q : c.questions()) {
            assertThat(q.evidence()).as(q.question()).isNotEmpty();
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

    @Test
    void multiHopQuestionsGatherTurnsFromSeveralSessions() throws Exception {
        Locomo.Conversation c = chat();
        Map<String, Locomo.Turn> byId = ChatSets.byId(c);
        for (Locomo.Question q : c.questions()) {
            if (q.category() != 1) {
                continue;
            }
            assertThat(ChatSets.evidenceSessions(q, byId))
                    .as(q.question())
                    .hasSizeGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void turnsAreMostlyShortWithSomeLongOnes() throws Exception {
        Locomo.Conversation c = chat();
        long shortTurns = c.turns().stream().filter(t -> ChatSets.words(t.text()) <= SHORT).count();
        assertThat(shortTurns * 100)
                .as("turns of at most " + SHORT + " words")
                .isGreaterThanOrEqualTo(60L * c.turns().size());
        long longTurns = c.turns().stream().filter(t -> ChatSets.words(t.text()) >= 40).count();
        assertThat(longTurns).as("turns of at least 40 words").isGreaterThanOrEqualTo(15L);
    }

    @Test
    void evidenceIsSpreadOverEachThirdOfTheChat() throws Exception {
        Locomo.Conversation c = chat();
        Map<String, Locomo.Turn> byId = ChatSets.byId(c);
        List<Integer> order = List.copyOf(sessions(c).keySet());
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

    @Test
    void speakerLabelsAreHandlesThatQuestionsDoNotUse() throws Exception {
        Locomo.Conversation c = chat();
        // handles such as "hattie.v"; in the text and questions they are "Hattie", "Hat", "Solly"
        assertThat(List.of(c.speakerA(), c.speakerB()))
                .doesNotHaveDuplicates()
                .allSatisfy(h -> assertThat(h).matches("[a-z0-9]+[._][a-z0-9._]+"));
        assertThat(c.questions())
                .allSatisfy(
                        q ->
                                assertThat(q.question())
                                        .doesNotContain(c.speakerA())
                                        .doesNotContain(c.speakerB()));
    }

    private static Map<Integer, List<Locomo.Turn>> sessions(Locomo.Conversation c) {
        return c.turns().stream()
                .collect(
                        Collectors.groupingBy(
                                Locomo.Turn::session, TreeMap::new, Collectors.toList()));
    }
}
