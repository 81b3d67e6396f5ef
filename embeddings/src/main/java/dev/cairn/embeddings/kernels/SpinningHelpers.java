package dev.cairn.embeddings.kernels;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The calling thread plus one {@link SpinningHelper} per further core, running the parts of one
 * piece of work at once: part 0 on the caller, part {@code p} on helper {@code p - 1}.
 *
 * <p>Forward passes run one at a time on the inference thread, so one set serves every kernel that
 * splits its work ({@link #shared()}): the fp16 and int8 linear layers never run at once, and one
 * set of helpers spinning after a layer is all the two cores carry.
 *
 * <p>One caller at a time; a second concurrent caller gets {@link IllegalStateException}.
 */
public final class SpinningHelpers {

    private static SpinningHelpers shared;

    private final List<SpinningHelper> helpers;

    SpinningHelpers(String name, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        List<SpinningHelper> started = new ArrayList<>(threads - 1);
        for (int i = 1; i < threads; i++) {
            started.add(new SpinningHelper(name + "-" + i));
        }
        this.helpers = List.copyOf(started);
    }

    /** The set for forward passes: one thread per PyTorch intra-op thread, made on first use. */
    public static synchronized SpinningHelpers shared() {
        if (shared == null) {
            shared = new SpinningHelpers("cairn-inference-helper", TorchRuntime.threads());
        }
        return shared;
    }

    /** How many parts can run at once: the caller and its helpers. */
    int threads() {
        return helpers.size() + 1;
    }

    /**
     * How many parts {@code units} (rows, columns) are cut into: one per thread, but none smaller
     * than {@code minPerPart} units, and at least one.
     */
    int parts(int units, int minPerPart) {
        return Math.max(1, Math.min(threads(), units / minPerPart));
    }

    /**
     * The results of {@code part(0)} to {@code part(parts - 1)}, in order, run at once. Returns
     * only after every started part has ended, also when one fails; the first failure (the caller's
     * part first) is then thrown, the others added to it as suppressed.
     */
    <T> List<T> inParts(int parts, IntFunction<T> part) {
        if (parts < 1 || parts > threads()) {
            throw new IllegalArgumentException(
                    "parts must be between 1 and " + threads() + ": " + parts);
        }
        if (parts == 1) {
            return Collections.singletonList(part.apply(0));
        }
        for (int p = 1; p < parts; p++) {
            int index = p;
            helpers.get(p - 1).start(() -> part.apply(index));
        }
        Object[] results = new Object[parts];
        // part.apply throws only unchecked exceptions: RuntimeException or Error
        Throwable failure = null;
        try {
            results[0] = part.apply(0);
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        for (int p = 1; p < parts; p++) {
            try {
                results[p] = helpers.get(p - 1).await();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw (RuntimeException) failure;
        }
        @SuppressWarnings("unchecked")
        List<T> ordered = (List<T>) Arrays.asList(results);
        return ordered;
    }

    /**
     * Runs {@code work} over rows {@code [0, rows)}, cut into equal ranges of at least {@code
     * minRowsPerPart} rows, at once.
     */
    public void byRows(int rows, int minRowsPerPart, RowRange work) {
        int parts = parts(rows, minRowsPerPart);
        inParts(
                parts,
                p -> {
                    work.run(
                            (int) ((long) rows * p / parts), (int) ((long) rows * (p + 1) / parts));
                    return null;
                });
    }

    /** Work on rows {@code [from, to)}. */
    @FunctionalInterface
    public interface RowRange {
        void run(int from, int to);
    }
}
