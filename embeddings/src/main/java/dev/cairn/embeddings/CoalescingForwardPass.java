package dev.cairn.embeddings;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Query micro-batching: embedding requests that arrive while a forward pass runs are gathered and
 * run together in the next pass, as one length-bucketed batch, and each caller gets its own rows
 * back. Forward passes already run one at a time on the inference thread; a request joins the queue
 * and asks that thread to drain it, so the first drain after a pass takes everything that queued up
 * behind it and later drains find nothing to do. A request that arrives when the thread is idle
 * runs at once, alone: batching adds no waiting, only the passes that concurrency already forced
 * are shared. Sixteen agents asking at once pay for one or two passes instead of sixteen.
 *
 * <p>Thread-safe.
 */
final class CoalescingForwardPass {

    /**
     * Most texts one drain takes: a pass of this many short queries stays well inside the encoder's
     * per-pass token budget; more waiting requests go to the next pass.
     */
    static final int MAX_TEXTS_PER_DRAIN = 256;

    /**
     * {@code -Dcairn.embeddings.micro-batching=false} gives every request its own pass (the way
     * before batching), for side-by-side measurements.
     */
    static final boolean ENABLED =
            !"false".equals(System.getProperty("cairn.embeddings.micro-batching"));

    /** One caller's texts, tokenised, and where its rows go. */
    private record Request(long[][] ids, CompletableFuture<List<float[]>> rows) {}

    private final Function<long[][], List<float[]>> forward;
    private final ConcurrentLinkedQueue<Request> pending = new ConcurrentLinkedQueue<>();
    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();

    /**
     * @param forward embeds tokenised texts on the calling (inference) thread, in input order
     */
    CoalescingForwardPass(Function<long[][], List<float[]>> forward) {
        this.forward = forward;
    }

    /** Embeds {@code ids}, sharing a forward pass with concurrent callers; rows in input order. */
    List<float[]> embed(long[][] ids) {
        requests.incrementAndGet();
        if (TorchRuntime.isInferenceThread()) {
            passes.incrementAndGet();
            return forward.apply(ids);
        }
        if (!ENABLED) {
            return TorchRuntime.onInferenceThread(
                    () -> {
                        passes.incrementAndGet();
                        return forward.apply(ids);
                    });
        }
        Request request = new Request(ids, new CompletableFuture<>());
        pending.add(request);
        // Drains run in submission order on one thread: by the time ours has run, an earlier
        // drain or ours has answered this request.
        TorchRuntime.onInferenceThread(this::drain);
        try {
            return request.rows().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException(
                    "interrupted while waiting for inference");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Runs everything queued (up to {@link #MAX_TEXTS_PER_DRAIN} texts) as one pass. */
    private Void drain() {
        List<Request> taken = new ArrayList<>();
        int texts = 0;
        Request next;
        while ((next = pending.peek()) != null
                && (taken.isEmpty() || texts + next.ids().length <= MAX_TEXTS_PER_DRAIN)) {
            pending.poll();
            taken.add(next);
            texts += next.ids().length;
        }
        if (taken.isEmpty()) {
            return null;
        }
        long[][] all = new long[texts][];
        int at = 0;
        for (Request r : taken) {
            System.arraycopy(r.ids(), 0, all, at, r.ids().length);
            at += r.ids().length;
        }
        List<float[]> rows;
        try {
            passes.incrementAndGet();
            rows = forward.apply(all);
        } catch (RuntimeException | Error e) {
            taken.forEach(r -> r.rows().completeExceptionally(e));
            return null;
        }
        at = 0;
        for (Request r : taken) {
            r.rows().complete(List.copyOf(rows.subList(at, at + r.ids().length)));
            at += r.ids().length;
        }
        return null;
    }

    /** Forward passes run so far (a drain that found nothing is not one). */
    long passes() {
        return passes.get();
    }

    /** Requests waiting for a drain. */
    int queued() {
        return pending.size();
    }

    /** Requests served so far. */
    long requests() {
        return requests.get();
    }
}
