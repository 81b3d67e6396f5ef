package dev.cairn.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import org.junit.jupiter.api.Test;

class QuantitiesTest {

    @Test
    void normalisesNumbersPercentagesDatesAndVersions() {
        assertThat(
                        Quantities.of(
                                "Since March 2024 and 2024-03-05, v1.2.0 allows 1,000 calls, 50 percent more, 3.50 MB."))
                .extracting(Quantities.Quantity::kind, Quantities.Quantity::value)
                .containsExactly(
                        tuple(Quantities.Kind.DATE, "2024-03"),
                        tuple(Quantities.Kind.DATE, "2024-03-05"),
                        tuple(Quantities.Kind.VERSION, "1.2"),
                        tuple(Quantities.Kind.NUMBER, "1000"),
                        tuple(Quantities.Kind.PERCENT, "50"),
                        tuple(Quantities.Kind.NUMBER, "3.5"));
    }

    @Test
    void keepsTheContentWordsAroundAQuantity() {
        assertThat(Quantities.of("the request limit is 500 per minute").getFirst().context())
                .containsExactly("request", "limit", "minut");
    }
}
