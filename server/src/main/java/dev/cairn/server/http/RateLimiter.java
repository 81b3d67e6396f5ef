package dev.cairn.server.http;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A token bucket per key (a caller: a token and namespace, or a client address): each key may burst
 * {@code capacity} requests, refilled at {@code perSecond}. Only the most recently seen {@link
 * #MAX_KEYS} keys are tracked, so a flood of spoofed addresses cannot grow the map without bound (a
 * forgotten key starts with a full bucket, which only ever errs on the side of letting a request
 * through). Thread-safe.
 */
public final class RateLimiter {

    /** Most keys tracked at once. */
    public static final int MAX_KEYS = 10_000;

    /**
     * Whether a request may go ahead, and if not, how long until its key's bucket holds a token.
     *
     * @param granted whether the request took a token
     * @param retryAfter {@link Duration#ZERO} when granted, else the wait for the next token
     */
    public record Admission(boolean granted, Duration retryAfter) {

        static final Admission GRANTED = new Admission(true, Duration.ZERO);

        /** {@link #retryAfter} in whole seconds, rounded up and at least 1: a Retry-After value. */
        public long retryAfterSeconds() {
            long nanos = retryAfter.toNanos();
            return Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
        }
    }

    private final int capacity;
    private final double perSecond;
    private final double perNano;
    private final Map<String, double[]> buckets =
            new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
                    return size() > MAX_KEYS;
                }
            };

    public RateLimiter(int capacity, double perSecond) {
        if (capacity < 1 || !(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException(
                    "illegal capacity "
                            + capacity
                            + " or rate "
                            + perSecond
                            + ", must be > 0 (and the rate finite)");
        }
        this.capacity = capacity;
        this.perSecond = perSecond;
        this.perNano = perSecond / 1e9;
    }

    /** Requests one key may make at once. */
    public int capacity() {
        return capacity;
    }

    /** Requests per second one key gets back. */
    public double perSecond() {
        return perSecond;
    }

    /** Takes one token for {@code key}, or says how long until there is one. */
    public Admission tryAcquire(String key) {
        return tryAcquire(key, System.nanoTime());
    }

    synchronized Admission tryAcquire(String key, long nowNanos) {
        // bucket = {tokens, last refill time in nanos}
        double[] bucket = buckets.computeIfAbsent(key, k -> new double[] {capacity, nowNanos});
        double elapsed = Math.max(0, nowNanos - bucket[1]);
        bucket[0] = Math.min(capacity, bucket[0] + elapsed * perNano);
        bucket[1] = nowNanos;
        if (bucket[0] < 1) {
            return new Admission(
                    false, Duration.ofNanos((long) Math.ceil((1 - bucket[0]) / perNano)));
        }
        bucket[0] -= 1;
        return Admission.GRANTED;
    }
}
