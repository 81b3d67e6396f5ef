package dev.cairn.eval.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The project's chats whose turns are long ({@code chats/long-turns.json}, LoCoMo's format): a
 * third kind of conversation, written for issue 39 item 3 (long, informal turns). Each turn reads
 * like a voice-note transcript or a long catch-up message that wanders over several topics, and the
 * fact a question needs sits mid-turn, after unrelated news, so a small encoder's single vector per
 * turn may miss it. What makes the set that kind of conversation is checked here, so an edit that
 * loses it fails here rather than silently in the numbers.
 */
class LongTurnChatsTest {

    private static final int LONG = 80;

    @Test
    void fourDatedConversationsWhoseEvidenceAllNamesTurns() throws Exception {
        List<Locomo.Conversation> all = ChatSets.read("long-turns.json");

        assertThat(all)
                .extracting(Locomo.Conversation::sampleId)
                .containsExactly("long-a1", "long-b1", "long-a2", "long-b2");
        int questions = 0;
        for (Locomo.Conversation c : all) {
            Map<String, Locomo.Turn> byId = ChatSets.byId(c);
            assertThat(c.turns()).as(c.sampleId()).hasSizeBetween(90, 140);
            assertThat(c.turns().stream().map(Locomo.Turn::session).distinct().count())
                    .as(c.sampleId())
                    .isBetween(10L, 14L);
            assertThat(c.turns())
                    .allSatisfy(
                            t -> assertThat(t.at()).isAfter(Instant.parse("2023-01-01T00:00:00Z")));
            ChatSets.assertNumberedInSessions(c);
            for (Locomo.Question q : c.questions()) {
                assertThat(byId.keySet())
                        .as(c.sampleId() + ": " + q.question())
                        .containsAll(q.evidence());
            }
            assertThat(c.questions()).as(c.sampleId()).hasSizeBetween(30, 40);
            questions += c.questions().size();
        }
        assertThat(questions).isEqualTo(135);
    }

    @Test
    void turnsAreLongAndSoAreTheTurnsQuestionsNeed() throws Exception {
        for (Locomo.Conversation c : ChatSets.read("long-turns.json")) {
            long longTurns =
                    c.turns().stream().filter(t -> ChatSets.words(t.text()) >= LONG).count();
            assertThat(longTurns * 100)
                    .as(c.sampleId() + ": turns of at least " + LONG + " words")
                    .isGreaterThanOrEqualTo(70L * c.turns().size());

            Map<String, Locomo.Turn> byId = ChatSets.byId(c);
            List<Locomo.Turn> evidence =
                    c.questions().stream()
                            .flatMap(q -> q.evidence().stream())
                            .map(byId::get)
                            .filter(Objects::nonNull)
                            .toList();
            long longEvidence =
                    evidence.stream().filter(t -> ChatSets.words(t.text()) >= LONG).count();
            assertThat(longEvidence * 100)
                    .as(c.sampleId() + ": evidence turns of at least " + LONG + " words")
                    .isGreaterThanOrEqualTo(75L * evidence.size());
        }
    }

    @Test
    void multiHopQuestionsGatherTurnsFromSeveralSessions() throws Exception {
        for (Locomo.Conversation c : ChatSets.read("long-turns.json")) {
            Map<String, Locomo.Turn> byId = ChatSets.byId(c);
            List<Locomo.Question> multiHop =
                    c.questions().stream().filter(q -> q.category() == 1).toList();
            assertThat(multiHop).as(c.sampleId()).hasSizeGreaterThanOrEqualTo(12);
            for (Locomo.Question q : multiHop) {
                assertThat(ChatSets.evidenceSessions(q, byId))
                        .as(c.sampleId() + ": " + q.question())
                        .hasSizeGreaterThanOrEqualTo(2);
            }
        }
    }

    @Test
    void peopleAreCalledByNamesTheirSpeakerLabelsDoNotCarry() throws Exception {
        for (Locomo.Conversation c : ChatSets.read("long-turns.json")) {
            long namedByLabel = ChatSets.questionsNamingALabel(c);
            // questions name people as they call each other ("Fi", "Callum"), not "fi.mcn"
            assertThat(namedByLabel * 2).as(c.sampleId()).isLessThan(c.questions().size());
        }
    }
}
