package dev.cairn.client;

import java.time.Duration;

/**
 * How an idempotent call is retried: after a connection failure or timeout, a {@code 503 Service
 * Unavailable} or a {@code 429 Too Many Requests}, up to {@code maxAttempts} attempts in all. The
 * wait before attempt n+1 is the answer's {@code Retry-After} when it has one, otherwise {@code
 * initialBackoff * 2^(n-1)} capped at {@code maxBackoff}; a {@code Retry-After} longer than {@code
 * maxRetryAfter} is not waited for (the error goes to the caller). Calls that are not idempotent
 * are sent once (see {@link CairnClient}).
 *
 * @param maxAttempts attempts in all, 1 (no retry) or more
 * @param initialBackoff the first wait without {@code Retry-After}
 * @param maxBackoff the longest wait without {@code Retry-After}
 * @param maxRetryAfter the longest {@code Retry-After} honoured
 */
public record RetryPolicy(
        int maxAttempts, Duration initialBackoff, Duration maxBackoff, Duration maxRetryAfter) {

    /** Three attempts, 200 ms then 400 ms apart, {@code Retry-After} up to 30 s. */
    public static final RetryPolicy DEFAULT =
            new RetryPolicy(
                    3, Duration.ofMillis(200), Duration.ofSeconds(5), Duration.ofSeconds(30));

    /** One attempt. */
    public static final RetryPolicy NONE =
            new RetryPolicy(1, Duration.ZERO, Duration.ZERO, Duration.ZERO);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException(
                    "illegal maxAttempts: " + maxAttempts + ", must be >= 1");
        }
        requireNotNegative(initialBackoff, "initialBackoff");
        requireNotNegative(maxBackoff, "maxBackoff");
        requireNotNegative(maxRetryAfter, "maxRetryAfter");
    }

    /** The wait before the attempt after {@code attempt} (1-based) when the server named none. */
    Duration backoff(int attempt) {
        Duration wait = initialBackoff;
        for (int i = 1; i < attempt && wait.compareTo(maxBackoff) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }

    private static void requireNotNegative(Duration d, String name) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException(
                    "illegal " + name + ": " + d + ", must be a duration >= 0");
        }
    }
}
