package dev.cairn.server.cli;

import dev.cairn.retrieval.IngestResult;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The progress of an ingest on the command line ({@code cairn ingest}, local and {@code --server},
 * and {@code cairn eval beir}): a bar in documents with documents/s and an ETA while it runs (on a
 * terminal; in a log, a line every 30 s for eval), a warning line on stderr for each document left
 * out, and one summary line at the end with the rate and what happened to every document (ingested,
 * unchanged, skipped with the reasons, failed), which is what a log keeps.
 *
 * <p>Thread-safe: a local ingest reports stored documents on the caller's thread and the ones it
 * leaves out on the thread that reads the files.
 */
final class IngestProgress implements AutoCloseable {

    private final ProgressBar bar;
    private final long start = System.nanoTime();
    private final PrintWriter warnings;
    private long written;
    private long chunks;
    private long unchanged;
    private final Map<String, Integer> skipped = new TreeMap<>();
    private long failed;

    /** How often a log (stderr not a terminal) gets a progress line, when it gets any. */
    static final int LOG_LINE_INTERVAL_MILLIS = 30_000;

    /**
     * A bar over {@code total} documents on a terminal; elsewhere a progress line every {@value
     * #LOG_LINE_INTERVAL_MILLIS} ms if {@code always}, else nothing.
     */
    IngestProgress(long total, boolean always) {
        this(total, always, new PrintWriter(System.err, true));
    }

    /**
     * As {@link #IngestProgress(long, boolean)}, with the warning lines going to {@code warnings}.
     */
    IngestProgress(long total, boolean always, PrintWriter warnings) {
        this.warnings = warnings;
        ProgressBarBuilder builder =
                new ProgressBarBuilder()
                        .setTaskName("ingest")
                        .setInitialMax(total)
                        .setUnit(" docs", 1)
                        .showSpeed(new java.text.DecimalFormat("#.0"))
                        .setSpeedUnit(ChronoUnit.SECONDS)
                        .setStyle(ProgressBarStyle.ASCII)
                        .continuousUpdate();
        if (System.console() == null) {
            // a log, not a terminal: no carriage-return redraws; a plain line now and then, or none
            builder.setConsumer(
                            new DelegatingProgressBarConsumer(
                                    always ? System.err::println : line -> {}))
                    .setUpdateIntervalMillis(LOG_LINE_INTERVAL_MILLIS);
        }
        this.bar = builder.build();
    }

    /** Counts a document the ingest stored or found unchanged. */
    synchronized void step(IngestResult result) {
        if (result.unchanged()) {
            unchanged++;
        } else {
            written++;
            chunks += result.chunks();
        }
        bar.step();
    }

    /**
     * Counts a document left out on purpose, for a reason the user can act on or ignore ({@code no
     * content}: a Hugo {@code _index.md} with front matter only), and says so in one line.
     */
    synchronized void skipped(String what, String reason, String detail) {
        skipped.merge(reason, 1, Integer::sum);
        warnings.println("cairn: skipped " + what + ": " + reason + " (" + detail + ")");
        warnings.flush();
        bar.step();
    }

    /** Counts a document the ingest could not store and says why in one line; the rest go on. */
    synchronized void failed(String what, String reason) {
        failed++;
        warnings.println("cairn: failed to ingest " + what + ": " + reason);
        warnings.flush();
        bar.step();
    }

    /** Documents that failed; a run with any exits non-zero. */
    synchronized long failed() {
        return failed;
    }

    /**
     * Prints {@code ingested N documents (M chunks) into WHERE in S s (R documents/s); U unchanged,
     * K skipped (REASON: n, ...), F failed}: N and M count what was embedded and stored, the rate
     * is theirs over the whole time.
     */
    synchronized void summary(PrintStream out, String where) {
        double seconds = (System.nanoTime() - start) / 1e9;
        long skips = skipped.values().stream().mapToLong(Integer::longValue).sum();
        String reasons =
                skipped.entrySet().stream()
                        .map(e -> e.getKey() + ": " + e.getValue())
                        .collect(Collectors.joining(", ", " (", ")"));
        out.printf(
                Locale.ROOT,
                "ingested %d documents (%d chunks) into %s in %.1f s (%.1f documents/s);"
                        + " %d unchanged, %d skipped%s, %d failed%n",
                written,
                chunks,
                where,
                seconds,
                seconds > 0 ? written / seconds : 0.0,
                unchanged,
                skips,
                skips == 0 ? "" : reasons,
                failed);
    }

    @Override
    public void close() {
        bar.close();
    }
}
