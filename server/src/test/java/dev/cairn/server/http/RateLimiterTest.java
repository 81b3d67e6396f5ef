package dev.cairn.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

    @Test
    void burstsToCapacityThenRefillsAtTheRatePerKey() {
        RateLimiter limiter = new RateLimiter(3, 2);
        long t = 1_000_000_000L;
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.tryAcquire("a", t).granted()).isTrue();
        }
        assertThat(limiter.tryAcquire("a", t).granted()).isFalse();
        assertThat(limiter.tryAcquire("b", t).granted())
                .as("another key has its own bucket")
                .isTrue();
        assertThat(limiter.tryAcquire("a", t + 400_000_000L).granted()).isFalse();
        assertThat(limiter.tryAcquire("a", t + 500_000_000L).granted())
                .as("half a second: one token")
                .isTrue();
        assertThat(limiter.tryAcquire("a", t + 500_000_000L).granted()).isFalse();
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.tryAcquire("a", t + 60_000_000_000L).granted()).isTrue();
        }
        assertThat(limiter.tryAcquire("a", t + 60_000_000_000L).granted())
                .as("capped at capacity")
                .isFalse();
    }

    @Test
    void aRefusalSaysHowLongUntilTheNextToken() {
        RateLimiter limiter = new RateLimiter(1, 0.25);
        long t = 5_000_000_000L;
        assertThat(limiter.tryAcquire("k", t)).isEqualTo(RateLimiter.Admission.GRANTED);

        RateLimiter.Admission refused = limiter.tryAcquire("k", t + 1_500_000_000L);

        assertThat(refused.granted()).isFalse();
        // a token every 4 s, 1.5 s of it gone: 2.5 s to wait, Retry-After 3
        assertThat(refused.retryAfter())
                .isBetween(Duration.ofMillis(2_499), Duration.ofMillis(2_501));
        assertThat(refused.retryAfterSeconds()).isEqualTo(3);
        assertThat(new RateLimiter(10, 1000).tryAcquire("k", t).retryAfterSeconds())
                .as("at least one second")
                .isEqualTo(1);
    }
}
