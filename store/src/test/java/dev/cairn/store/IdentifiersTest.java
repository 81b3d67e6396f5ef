package dev.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one identifier alphabet: what it accepts and what it refuses, with the reason. */
class IdentifiersTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "doc-1",
                "runbooks.deploy",
                "Über-Plan (v2)",
                "a:b@c+d",
                "日本語",
                "مرحبا",
                "release notes 4.2",
                "ticket#42",
                "€uro",
                "emoji\uD83D\uDE00"
            })
    void legalIdsAreAccepted(String id) {
        assertThat(Identifiers.requireId(id, "id")).isEqualTo(id);
        assertThat(Identifiers.isId(id)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "a\u0000b",
                "a\nb",
                "a\tb",
                "a\u200Bb",
                "a\u202Eb",
                "a\uDB40\uDC41b",
                "\uE000private",
                " lead",
                "trail ",
                "a/b",
                ".",
                "..",
                "lone\uD800"
            })
    void illegalIdsAreRefusedNamingTheField(String id) {
        assertThat(Identifiers.isId(id)).isFalse();
        assertThatThrownBy(() -> Identifiers.requireId(id, "document id"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("illegal document id: ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"runbooks/deploy/chunk-0001", "a/b"})
    void keysMayContainSlashes(String key) {
        assertThat(Identifiers.requireKey(key, "key")).isEqualTo(key);
    }

    @org.junit.jupiter.api.Test
    void lengthLimitsDifferForIdsAndKeys() {
        String id = "x".repeat(Identifiers.MAX_ID_LENGTH);
        assertThat(Identifiers.isId(id)).isTrue();
        assertThat(Identifiers.isId(id + "x")).isFalse();
        assertThat(Identifiers.requireKey("x".repeat(Identifiers.MAX_KEY_LENGTH), "key"))
                .hasSize(1024);
        assertThatThrownBy(
                        () ->
                                Identifiers.requireKey(
                                        "x".repeat(Identifiers.MAX_KEY_LENGTH + 1), "key"))
                .hasMessageContaining("must be at most 1024");
    }
}
