package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.Month;
import org.junit.jupiter.api.Test;

class QueryPeriodTest {

    @Test
    void readsTheCalendarPeriodAQuestionNames() {
        assertThat(QueryPeriod.of("When did Melanie go camping in June?"))
                .contains(new QueryPeriod(Month.JUNE, 0, 0));
        assertThat(QueryPeriod.of("What physical transformation did Nate undergo in April 2022?"))
                .contains(new QueryPeriod(Month.APRIL, 2022, 0));
        assertThat(QueryPeriod.of("What painting did Mel show on October 13, 2023?"))
                .contains(new QueryPeriod(Month.OCTOBER, 2023, 13));
        assertThat(QueryPeriod.of("What did Gina find on 1 February, 2023?"))
                .contains(new QueryPeriod(Month.FEBRUARY, 2023, 1));
        assertThat(QueryPeriod.of("what happened on the 3rd of march"))
                .contains(new QueryPeriod(Month.MARCH, 0, 3));
    }

    @Test
    void mayIsAMonthOnlyWithADayAYearOrAfterIn() {
        assertThat(QueryPeriod.of("May I ask what Jon eats?")).isEmpty();
        assertThat(QueryPeriod.of("Which book may Caroline read next?")).isEmpty();
        assertThat(QueryPeriod.of("What did Jon do in May?"))
                .contains(new QueryPeriod(Month.MAY, 0, 0));
        assertThat(QueryPeriod.of("What happened on 7 May 2023?"))
                .contains(new QueryPeriod(Month.MAY, 2023, 7));
        assertThat(QueryPeriod.of("Where did Jon go last week?")).isEmpty();
    }

    @Test
    void coversThePeriodAndTheTwoWeeksAfterIt() {
        QueryPeriod june = new QueryPeriod(Month.JUNE, 0, 0);
        assertThat(june.covers(Instant.parse("2023-06-01T00:00:00Z"))).isTrue();
        assertThat(june.covers(Instant.parse("2021-07-14T12:00:00Z"))).isTrue();
        assertThat(june.covers(Instant.parse("2023-07-15T12:00:00Z"))).isFalse();
        assertThat(june.covers(Instant.parse("2023-05-31T23:59:59Z"))).isFalse();
        QueryPeriod day = new QueryPeriod(Month.OCTOBER, 2023, 13);
        assertThat(day.covers(Instant.parse("2023-10-13T18:00:00Z"))).isTrue();
        assertThat(day.covers(Instant.parse("2023-10-27T18:00:00Z"))).isTrue();
        assertThat(day.covers(Instant.parse("2023-10-12T18:00:00Z"))).isFalse();
        assertThat(day.covers(Instant.parse("2022-10-13T18:00:00Z"))).isFalse();
        QueryPeriod december = new QueryPeriod(Month.DECEMBER, 0, 0);
        assertThat(december.covers(Instant.parse("2024-01-10T00:00:00Z"))).isTrue();
    }
}
