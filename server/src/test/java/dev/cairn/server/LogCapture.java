package dev.cairn.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the server logs at INFO and above while it is open, as records, to assert on what an
 * operator would read. {@code alsoInfoOf} names loggers whose INFO lines are to be recorded even
 * where the test logging configuration sets them quieter.
 */
final class LogCapture extends Handler implements AutoCloseable {

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger raised;
    private final Level raisedWas;

    LogCapture() {
        this(null);
    }

    LogCapture(String alsoInfoOf) {
        this.raised = alsoInfoOf == null ? null : Logger.getLogger(alsoInfoOf);
        this.raisedWas = raised == null ? null : raised.getLevel();
        if (raised != null) {
            raised.setLevel(Level.INFO);
        }
        Logger.getLogger("").addHandler(this);
    }

    List<LogRecord> records() {
        return records;
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.INFO.intValue()) {
            records.add(record);
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
        if (raised != null) {
            raised.setLevel(raisedWas);
        }
    }
}
