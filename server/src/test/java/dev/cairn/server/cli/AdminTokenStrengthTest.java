package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A configured admin token opens every namespace: a short one is refused at start. */
class AdminTokenStrengthTest {

    @Test
    void aTokenShorterThan32CharactersIsRefusedNamingTheMinimum() {
        assertThatThrownBy(() -> Settings.requireStrongAdminToken("hunter2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("7 characters")
                .hasMessageContaining("at least 32")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> Settings.requireStrongAdminToken("x".repeat(31)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a32CharacterTokenOrNoneIsAccepted() {
        assertThatCode(() -> Settings.requireStrongAdminToken("x".repeat(32)))
                .doesNotThrowAnyException();
        assertThatCode(() -> Settings.requireStrongAdminToken("")).doesNotThrowAnyException();
    }
}
