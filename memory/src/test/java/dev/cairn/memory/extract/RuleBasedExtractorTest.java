package dev.cairn.memory.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.MemoryType;
import dev.cairn.memory.Scope;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuleBasedExtractorTest {

    private final MemoryExtractor extractor = MemoryExtractor.ruleBased();

    private List<Candidate> extract(String query, String response) {
        return extractor.extract(new ExtractionInput(query, response, Scope.of("t")));
    }

    @Test
    void recognisesAPreferenceInTheUsersQuery() {
        assertThat(extract("I prefer pnpm over npm.", "Okay."))
                .singleElement()
                .satisfies(
                        c -> {
                            assertThat(c.type()).isEqualTo(MemoryType.PREFERENCE);
                            assertThat(c.content()).isEqualTo("I prefer pnpm over npm.");
                            assertThat(c.rule()).isEqualTo("preference_strong");
                        });
    }

    @Test
    void decisionWinsOverEventForTheSameSentence() {
        assertThat(extract("We decided to ship the migration on 2026-03-02.", ""))
                .extracting(Candidate::type)
                .containsExactly(MemoryType.DECISION);
    }

    @Test
    void numberedStepsBecomeOneProcedureWithTheirLeadIn() {
        List<Candidate> out =
                extract(
                        "Release?",
                        "Release steps:\n1. Bump the version\n2. Tag it\n3. Push the tag");
        assertThat(out).singleElement().extracting(Candidate::type).isEqualTo(MemoryType.PROCEDURE);
        assertThat(out.get(0).content()).startsWith("Release steps:\n1. Bump");
    }

    @Test
    void skipsQuestionsSmallTalkAndTransientStatus() {
        assertThat(extract("Why do we use Kafka here?", "Because of replay.")).isEmpty();
        assertThat(extract("Thanks, that was great!", "You're welcome!")).isEmpty();
        assertThat(extract("The staging API is down right now.", "Okay.")).isEmpty();
    }

    @Test
    void remindMeQuestionIsStillATask() {
        assertThat(extract("Can you remind me to renew the cert on Friday?", ""))
                .extracting(Candidate::type)
                .containsExactly(MemoryType.TASK);
    }

    @Test
    void responseSentencesGetLowerConfidenceThanTheUsersOwn() {
        double fromUser = extract("We chose Kafka for the bus.", "").get(0).confidence();
        double fromAssistant =
                extract("Which bus?", "We chose Kafka for the bus.").get(0).confidence();
        assertThat(fromAssistant).isLessThan(fromUser);
    }

    @Test
    void problemsAndFixesAreRecognised() {
        assertThat(extract("The export failed because the bucket policy denied writes.", ""))
                .extracting(Candidate::type)
                .containsExactly(MemoryType.PROBLEM);
        assertThat(extract("We fixed the timeout by adding an index.", ""))
                .extracting(Candidate::rule)
                .containsExactly("problem_fix");
    }
}
