package dev.cairn.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AddressRateLimiterTest {

    @Test
    void burstsToCapacityThenRefillsAtTheRatePerAddress() {
        AddressRateLimiter limiter = new AddressRateLimiter(3, 2);
        long t = 1_000_000_000L;
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.tryAcquire("a", t)).isTrue();
        }
        assertThat(limiter.tryAcquire("a", t)).isFalse();
        assertThat(limiter.tryAcquire("b", t)).as("another address has its own bucket").isTrue();
        assertThat(limiter.tryAcquire("a", t + 400_000_000L)).isFalse();
        assertThat(limiter.tryAcquire("a", t + 500_000_000L))
                .as("half a second: one token")
                .isTrue();
        assertThat(limiter.tryAcquire("a", t + 500_000_000L)).isFalse();
        assertThat(limiter.tryAcquire("a", t + 60_000_000_000L)).isTrue();
        assertThat(limiter.tryAcquire("a", t + 60_000_000_000L)).isTrue();
        assertThat(limiter.tryAcquire("a", t + 60_000_000_000L)).isTrue();
        assertThat(limiter.tryAcquire("a", t + 60_000_000_000L)).as("capped at capacity").isFalse();
    }
}
