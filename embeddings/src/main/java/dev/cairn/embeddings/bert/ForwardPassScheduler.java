package dev.cairn.embeddings.bert;

import dev.cairn.embeddings.kernels.TorchRuntime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides what the one inference thread runs next, so that queries never wait behind a backlog of
 * documents and no document caller waits behind another's.
 *
 * <ul>
 *   <li><b>Queries first, batched.</b> Query embeddings that arrive while a pass runs are gathered
 *       and run together in the next pass, and each caller gets its own rows back (micro-batching).
 *       A query that arrives when the thread is idle runs at once, alone: batching adds no waiting,
 *       only the passes that concurrency already forced are shared.
 *   <li><b>Queries overtake documents.</b> A document pass calls {@link #yieldBetweenLayers()}
 *       between its layers; queries waiting then run at once, nested, so a query waits at most one
 *       layer of one document batch (tens of milliseconds), however many documents are queued.
 *   <li><b>Short document jobs overtake too.</b> A document call whose texts run as one short pass
 *       (the route a nested query pass takes, see {@link ForwardPass#runsAsShortPass}), such as one
 *       memory being written, runs between two layers like a query, after the queries waiting then.
 *       Taking turns alone left it waiting for the slice in progress, a whole pass of 32 texts: 1
 *       to 2 s on two busy cores, and 10 s for a server's first (cold) batch pass, so the first
 *       memory write in one namespace while another embedded 1,500 ARK messages took 3.6 to 10 s
 *       (issue 40).
 *   <li><b>Document callers take turns.</b> Each other {@link #embedDocuments} call is a job, its
 *       texts sorted by length and cut into slices of {@link #DOCUMENT_SLICE} texts; jobs run one
 *       slice each in turn (a job that arrives while a slice runs goes before the job of that
 *       slice), so a namespace indexing 1,500 messages and another ingesting a document share the
 *       thread fairly instead of the second waiting for the first to finish.
 * </ul>
 *
 * <p>Thread-safe.
 */
final class ForwardPassScheduler {

    /**
     * Most query texts one pass takes: a pass of this many short queries stays well inside the
     * encoder's per-pass token budget; more waiting queries go to the next pass.
     */
    static final int MAX_QUERIES_PER_PASS = 256;

    /** Texts of one document job run before the next job gets its turn (one encoder batch). */
    static final int DOCUMENT_SLICE = BertEncoder.DEFAULT_BATCH_SIZE;

    /** One query caller's texts, tokenised, and where its rows go. */
    private record QueryRequest(long[][] ids, CompletableFuture<List<float[]>> rows) {}

    /** One document caller's texts, run slice by slice in length order. */
    private static final class DocumentJob {
        final long[][] ids;
        final Integer[] byLength;
        final float[][] out;
        final CompletableFuture<List<float[]>> rows = new CompletableFuture<>();
        int next;

        DocumentJob(long[][] ids) {
            this.ids = ids;
            this.byLength = new Integer[ids.length];
            Arrays.setAll(byLength, i -> i);
            Arrays.sort(byLength, Comparator.comparingInt(i -> ids[i].length));
            this.out = new float[ids.length][];
        }

        boolean done() {
            return next >= ids.length;
        }
    }

    /** One forward pass on the inference thread: rows in input order. */
    interface ForwardPass {
        /**
         * Embeds tokenised texts; {@code queries} says which kind they are (the encoder may compute
         * the two kinds differently).
         */
        List<float[]> run(long[][] ids, boolean queries);

        /**
         * Whether these document texts run as one short pass on a route that nested query passes
         * take, so they may run nested between the layers of another document pass as well.
         */
        boolean runsAsShortPass(long[][] ids);
    }

    private final ForwardPass forward;
    private final ConcurrentLinkedQueue<QueryRequest> queries = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<DocumentJob> arrivingJobs = new ConcurrentLinkedQueue<>();

    /** Document jobs that run as one short pass: they overtake like queries. */
    private final ConcurrentLinkedQueue<DocumentJob> shortJobs = new ConcurrentLinkedQueue<>();

    /** Jobs with slices left, in turn order; touched on the inference thread only. */
    private final ArrayDeque<DocumentJob> turns = new ArrayDeque<>();

    /**
     * Whether a pass that overtook (queries, a short document job) is running: nothing overtakes it
     * in turn, so passes nest at most one deep. Inference thread only.
     */
    private boolean inOvertakingPass;

    /** Set by {@link #close}: what is queued fails, nothing new runs. */
    private volatile boolean closed;

    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong overtakes = new AtomicLong();

    /**
     * Whether calls share passes; off ({@link EncoderOptions#microBatching()}), every call has its
     * own pass in arrival order (the way before scheduling), for side-by-side measurements.
     */
    private final boolean microBatching;

    /**
     * @param forward embeds tokenised texts on the calling (inference) thread, in input order
     * @param microBatching whether concurrent calls share passes
     */
    ForwardPassScheduler(ForwardPass forward, boolean microBatching) {
        this.forward = forward;
        this.microBatching = microBatching;
    }

    /** Embeds query texts, sharing a pass with concurrent queries; rows in input order. */
    List<float[]> embedQueries(long[][] ids) {
        requireOpen();
        requests.incrementAndGet();
        if (TorchRuntime.isInferenceThread() || !microBatching) {
            return direct(ids, true);
        }
        QueryRequest request = new QueryRequest(ids, new CompletableFuture<>());
        queries.add(request);
        TorchRuntime.later(this::drain);
        return await(request.rows());
    }

    /** Embeds document texts, taking turns with other document callers; rows in input order. */
    List<float[]> embedDocuments(long[][] ids) {
        requireOpen();
        requests.incrementAndGet();
        if (TorchRuntime.isInferenceThread() || !microBatching) {
            return direct(ids, false);
        }
        DocumentJob job = new DocumentJob(ids);
        boolean overtakes = ids.length <= DOCUMENT_SLICE && forward.runsAsShortPass(ids);
        (overtakes ? shortJobs : arrivingJobs).add(job);
        TorchRuntime.later(this::drain);
        return await(job.rows);
    }

    /**
     * Runs the queries waiting now, then the short document jobs waiting now, if any, unless such
     * an overtaking pass is running already; called by the encoder on the inference thread between
     * the layers of a pass.
     */
    void yieldBetweenLayers() {
        if (closed || inOvertakingPass || !TorchRuntime.isInferenceThread()) {
            return;
        }
        if (!queries.isEmpty()) {
            overtakes.incrementAndGet();
            runQueries();
        }
        if (!shortJobs.isEmpty()) {
            overtakes.incrementAndGet();
            runShortJobs();
        }
    }

    private List<float[]> direct(long[][] ids, boolean queries) {
        return TorchRuntime.onInferenceThread(
                () -> {
                    passes.incrementAndGet();
                    return forward.run(ids, queries);
                });
    }

    /**
     * Runs everything waiting, queries before each document slice. Drains run one at a time on the
     * inference thread, so the first one after a submission takes it and later ones find nothing.
     * Callers wait for their own rows, not for the drain: a query answered between two layers of a
     * document pass returns while that pass goes on.
     */
    private void drain() {
        try {
            drainAll();
        } catch (RuntimeException | Error e) {
            failAll(e); // a bug here must not leave callers waiting forever
            throw e;
        }
    }

    /** Fails every queued query and job; inference thread only. */
    private void failAll(Throwable cause) {
        QueryRequest q;
        while ((q = queries.poll()) != null) {
            q.rows().completeExceptionally(cause);
        }
        DocumentJob j;
        while ((j = shortJobs.poll()) != null) {
            turns.addLast(j);
        }
        while ((j = arrivingJobs.poll()) != null) {
            turns.addLast(j);
        }
        while ((j = turns.pollFirst()) != null) {
            j.rows.completeExceptionally(cause);
        }
    }

    /**
     * Stops: the slice running now finishes, everything queued fails, and {@code release} (freeing
     * the weights) runs on the inference thread after that, so no pass ever reads freed memory.
     * Waits for it.
     */
    void close(Runnable release) {
        closed = true;
        TorchRuntime.onInferenceThread(
                () -> {
                    failAll(new IllegalStateException("the model was closed"));
                    release.run();
                    return null;
                });
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the model was closed");
        }
    }

    private void drainAll() {
        while (true) {
            if (closed) {
                failAll(new IllegalStateException("the model was closed"));
                return;
            }
            if (!queries.isEmpty()) {
                runQueries();
                continue;
            }
            if (!shortJobs.isEmpty()) {
                runShortJobs();
                continue;
            }
            takeArrivals();
            DocumentJob job = turns.pollFirst();
            if (job == null) {
                return;
            }
            boolean more = runSlice(job);
            // a job that arrived during the slice goes before this job's next one
            takeArrivals();
            if (more) {
                turns.addLast(job);
            }
        }
    }

    private void takeArrivals() {
        DocumentJob arrived;
        while ((arrived = arrivingJobs.poll()) != null) {
            turns.addLast(arrived);
        }
    }

    /** Runs every short document job waiting now, each as its one pass. */
    private void runShortJobs() {
        DocumentJob job;
        boolean outer = inOvertakingPass;
        inOvertakingPass = true;
        try {
            while ((job = shortJobs.poll()) != null) {
                runSlice(job);
            }
        } finally {
            inOvertakingPass = outer;
        }
    }

    private void runQueries() {
        List<QueryRequest> taken = new ArrayList<>();
        int texts = 0;
        QueryRequest next;
        while ((next = queries.peek()) != null
                && (taken.isEmpty() || texts + next.ids().length <= MAX_QUERIES_PER_PASS)) {
            queries.poll();
            taken.add(next);
            texts += next.ids().length;
        }
        if (taken.isEmpty()) {
            return;
        }
        long[][] all = new long[texts][];
        int at = 0;
        for (QueryRequest r : taken) {
            System.arraycopy(r.ids(), 0, all, at, r.ids().length);
            at += r.ids().length;
        }
        List<float[]> rows;
        boolean outer = inOvertakingPass;
        inOvertakingPass = true;
        try {
            passes.incrementAndGet();
            rows = forward.run(all, true);
        } catch (RuntimeException | Error e) {
            taken.forEach(r -> r.rows().completeExceptionally(e));
            return;
        } finally {
            inOvertakingPass = outer;
        }
        at = 0;
        for (QueryRequest r : taken) {
            r.rows().complete(List.copyOf(rows.subList(at, at + r.ids().length)));
            at += r.ids().length;
        }
    }

    /** Runs the job's next slice; whether slices are left. A failure fails the whole job. */
    private boolean runSlice(DocumentJob job) {
        int from = job.next;
        int to = Math.min(job.ids.length, from + DOCUMENT_SLICE);
        long[][] slice = new long[to - from][];
        for (int i = from; i < to; i++) {
            slice[i - from] = job.ids[job.byLength[i]];
        }
        try {
            passes.incrementAndGet();
            List<float[]> rows = forward.run(slice, false);
            for (int i = from; i < to; i++) {
                job.out[job.byLength[i]] = rows.get(i - from);
            }
        } catch (RuntimeException | Error e) {
            job.rows.completeExceptionally(e);
            return false;
        }
        job.next = to;
        if (job.done()) {
            job.rows.complete(List.of(job.out));
            return false;
        }
        return true;
    }

    private static List<float[]> await(CompletableFuture<List<float[]>> rows) {
        try {
            return rows.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for inference");
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

    /** Forward passes run so far (a drain that found nothing is not one). */
    long passes() {
        return passes.get();
    }

    /** Queries waiting for a pass. */
    int queued() {
        return queries.size();
    }

    /** Callers served so far. */
    long requests() {
        return requests.get();
    }

    /** Query passes and short document jobs that ran in the middle of another pass. */
    long overtakes() {
        return overtakes.get();
    }
}
