package dev.cairn.server.http;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A token bucket per client address, for the few routes that answer without a token (ARK's
 * conversation create): each address may burst {@code capacity} requests, refilled at {@code
 * perSecond}. Only the most recently seen {@link #MAX_ADDRESSES} addresses are tracked, so a flood
 * of spoofed addresses cannot grow the map without bound (a forgotten address starts with a full
 * bucket, which only ever errs on the side of letting a request through). Thread-safe.
 */
public final class AddressRateLimiter {

    /** Most addresses tracked at once. */
    public static final int MAX_ADDRESSES = 10_000;

    private final double capacity;
    private final double perNano;
    private final Map<String, double[]> buckets =
            new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
                    return size() > MAX_ADDRESSES;
                }
            };

    public AddressRateLimiter(int capacity, double perSecond) {
        if (capacity < 1 || !(perSecond > 0)) {
            throw new IllegalArgumentException(
                    "illegal capacity " + capacity + " or rate " + perSecond + ", must be > 0");
        }
        this.capacity = capacity;
        this.perNano = perSecond / 1e9;
    }

    /** Takes one token for {@code address}; false when its bucket is empty. */
    public boolean tryAcquire(String address) {
        return tryAcquire(address, System.nanoTime());
    }

    synchronized boolean tryAcquire(String address, long nowNanos) {
        // bucket = {tokens, last refill time in nanos}
        double[] bucket = buckets.computeIfAbsent(address, a -> new double[] {capacity, nowNanos});
        double elapsed = Math.max(0, nowNanos - bucket[1]);
        bucket[0] = Math.min(capacity, bucket[0] + elapsed * perNano);
        bucket[1] = nowNanos;
        if (bucket[0] < 1) {
            return false;
        }
        bucket[0] -= 1;
        return true;
    }
}
