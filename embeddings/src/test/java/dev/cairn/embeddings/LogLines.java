package dev.cairn.embeddings;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The log lines of level INFO and above that the module's classes write while this is open, for
 * tests that check a condition is reported once.
 */
public final class LogLines extends Handler implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger("dev.cairn.embeddings");
    private final java.util.logging.Level was = logger.getLevel();

    public LogLines() {
        logger.setLevel(java.util.logging.Level.INFO);
        logger.addHandler(this);
    }

    public List<String> lines() {
        return lines;
    }

    @Override
    public void publish(LogRecord r) {
        if (r.getLevel().intValue() >= java.util.logging.Level.INFO.intValue()) {
            lines.add(new SimpleFormatter().formatMessage(r));
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(was);
    }
}
