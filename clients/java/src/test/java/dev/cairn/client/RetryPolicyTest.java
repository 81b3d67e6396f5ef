package dev.cairn.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    @Test
    void backoffDoublesFromTheInitialWaitUpToTheCap() {
        RetryPolicy p =
                new RetryPolicy(
                        6, Duration.ofMillis(200), Duration.ofMillis(1000), Duration.ofSeconds(30));

        assertThat(p.backoff(1)).isEqualTo(Duration.ofMillis(200));
        assertThat(p.backoff(2)).isEqualTo(Duration.ofMillis(400));
        assertThat(p.backoff(3)).isEqualTo(Duration.ofMillis(800));
        assertThat(p.backoff(4)).isEqualTo(Duration.ofMillis(1000));
        assertThat(p.backoff(60)).as("no overflow far out").isEqualTo(Duration.ofMillis(1000));
    }

    @Test
    void illegalSettingsAreRefusedByName() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO, Duration.ZERO))
                .hasMessage("illegal maxAttempts: 0, must be >= 1");
        assertThatThrownBy(
                        () ->
                                new RetryPolicy(
                                        2, Duration.ofMillis(-1), Duration.ZERO, Duration.ZERO))
                .hasMessage("illegal initialBackoff: PT-0.001S, must be a duration >= 0");
    }
}
