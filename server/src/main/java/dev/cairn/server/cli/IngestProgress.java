package dev.cairn.server.cli;

import dev.cairn.retrieval.IngestResult;
import java.io.PrintStream;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The progress of an ingest on the command line ({@code cairn ingest}, local and {@code --server},
 * and {@code cairn eval beir}): a bar in documents with documents/s and an ETA while it runs (on a
 * terminal; in a log, a line every 30 s for eval), and one summary line at the end with the rate,
 * which is what a log keeps.
 *
 * <p>Not thread-safe: the ingest reports each document on the caller's thread.
 */
final class IngestProgress implements AutoCloseable {

    private final ProgressBar bar;
    private final long start = System.nanoTime();
    private long documents;
    private long chunks;
    private long unchanged;

    /** How often a log (stderr not a terminal) gets a progress line, when it gets any. */
    static final int LOG_LINE_INTERVAL_MILLIS = 30_000;

    /**
     * A bar over {@code total} documents on a terminal; elsewhere a progress line every {@value
     * #LOG_LINE_INTERVAL_MILLIS} ms if {@code always}, else nothing.
     */
    IngestProgress(long total, boolean always) {
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
    void step(IngestResult result) {
        documents++;
        chunks += result.chunks();
        if (result.unchanged()) {
            unchanged++;
        }
        bar.step();
    }

    long documents() {
        return documents;
    }

    long chunks() {
        return chunks;
    }

    /**
     * Prints {@code ingested N documents (M chunks, K unchanged) into WHERE in S s (R
     * documents/s)}; the rate counts only the documents embedded and stored, over the whole time.
     */
    void summary(PrintStream out, String where) {
        double seconds = (System.nanoTime() - start) / 1e9;
        long written = documents - unchanged;
        out.printf(
                Locale.ROOT,
                "ingested %d documents (%d chunks%s) into %s in %.1f s (%.1f documents/s)%n",
                documents,
                chunks,
                unchanged == 0 ? "" : ", " + unchanged + " unchanged, skipped",
                where,
                seconds,
                seconds > 0 ? written / seconds : 0.0);
    }

    @Override
    public void close() {
        bar.close();
    }
}
