package dev.cairn.eval.locomo;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Objects;

/**
 * The clock of a LoCoMo evaluation's memory service: {@link #AFTER_LAST_TURN} after the last turn
 * of the conversations being asked about, when an agent taking part in them would ask. At the wall
 * clock every turn of a dataset is years old and recency equally small for all of them, which
 * measured recall as no live conversation gets it (docs/memory.md, "Asked the day after"), and a
 * run's answers depended on the hour it ran. Thread-safe.
 */
public final class QuestionTime extends Clock {

    /** How long after the last turn the questions are asked. */
    public static final Duration AFTER_LAST_TURN = Duration.ofDays(1);

    private volatile Instant now;

    /** A clock at {@code start} until the first {@link #askAbout}. */
    public QuestionTime(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    /** Moves to {@link #AFTER_LAST_TURN} after the last turn of {@code conversations}. */
    public void askAbout(Collection<Locomo.Conversation> conversations) {
        Instant last =
                conversations.stream()
                        .flatMap(c -> c.turns().stream())
                        .map(Locomo.Turn::at)
                        .max(Instant::compareTo)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "illegal conversations: no turns to ask after"));
        now = last.plus(AFTER_LAST_TURN);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** The same clock: it keeps UTC, the zone LoCoMo's session dates are read in. */
    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
