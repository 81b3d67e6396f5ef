package dev.cairn.safety;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What is stored is what was sent: only a secret's own characters are replaced. */
class ExactTextTest {

    /**
     * Compatibility forms, spacing and invisible characters that NFKC or stripping would change.
     */
    static final String TYPOGRAPHY =
            "E=mc\u00B2 H\u2082O \u00BD \u2460 \uFB01le \uFF21\uFF22\uFF23 \u2122 \u2026"
                    + " \uD835\uDC01\uD835\uDC28\uD835\uDC25\uD835\uDC1D non\u00A0breaking"
                    + " soft\u00ADhyphen zero\u200Bwidth \uFEFFbom \u200Emark caf\u0065\u0301";

    private static final SecretRedactor REDACTOR = SecretRedactor.standard();

    @Test
    void textWithoutSecretsComesBackAsSent() {
        RedactionResult r = REDACTOR.redact(TYPOGRAPHY);

        assertThat(r.redacted()).isFalse();
        assertThat(r.text()).isEqualTo(TYPOGRAPHY);
    }

    @Test
    void onlyTheSecretIsReplacedAndEverythingAroundItStaysAsSent() {
        String token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
        String text = TYPOGRAPHY + " token " + token + " \uFB01nal \u2460";

        RedactionResult r = REDACTOR.redact(text);

        assertThat(r.text())
                .isEqualTo(TYPOGRAPHY + " token [REDACTED:github_token] \uFB01nal \u2460");
    }

    @Test
    void aSecretSplitByAnInvisibleCharacterIsReplacedWithTheCharacter() {
        String text = "\uFF2B\uFF25\uFF39 AKIA\u200BIOSFODNN7EXAMPLE done";

        RedactionResult r = REDACTOR.redact(text);

        assertThat(r.text()).isEqualTo("\uFF2B\uFF25\uFF39 [REDACTED:aws_access_key_id] done");
    }

    @Test
    void aFullWidthSecretIsFoundAndItsOriginalCharactersReplaced() {
        String fullWidthId = "\uFF21\uFF2B\uFF29\uFF21IOSFODNN7EXAMPLE";
        String text = "\u00BD key " + fullWidthId + " \u00BD";

        RedactionResult r = REDACTOR.redact(text);

        assertThat(r.text()).isEqualTo("\u00BD key [REDACTED:aws_access_key_id] \u00BD");
    }

    @Test
    void theMatchingCopyIsNfkcWithoutInvisiblesAndPointsBackIntoTheOriginal() {
        String original = "\uFB01x\u200By e\u0301!";

        SafeText.Matching m = SafeText.matching(original);

        assertThat(m.text()).isEqualTo("fixy \u00E9!");
        // "fi" both come from the ligature at 0..1; "y" from 3 (the ZWSP at 2 is dropped);
        // "é" from "e" and its combining accent at 5..7.
        assertThat(m.originalStart(0)).isZero();
        assertThat(m.originalEnd(2)).isEqualTo(1);
        assertThat(m.originalStart(3)).isEqualTo(3);
        assertThat(m.originalStart(5)).isEqualTo(5);
        assertThat(m.originalEnd(6)).isEqualTo(7);
        assertThat(SafeText.normalize(original)).isEqualTo(m.text());
    }

    @Test
    void normalisedTextNeedsNoCopy() {
        SafeText.Matching m = SafeText.matching("plain text");

        assertThat(m.text()).isSameAs(m.original());
        assertThat(m.originalEnd(5)).isEqualTo(5);
    }
}
