package dev.cairn.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.api.body.RetrieveBody;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.ai.vectorstore.filter.Filter;
import org.springframework.ai.vectorstore.filter.Filter.ExpressionType;
import org.springframework.ai.vectorstore.filter.FilterExpressionTextParser;

/**
 * Spring AI filter expressions as Cairn's retrieve filters: what the server can say is translated
 * exactly, everything else is refused by name (no server needed: nothing is sent).
 */
class FilterTranslationTest {

    static RetrieveBody.Filters translate(String expression) {
        return FilterTranslation.filters(new FilterExpressionTextParser().parse(expression));
    }

    @Test
    void equalityAndInOnMetadataKeysBecomeMetadataFiltersAsStoredText() {
        RetrieveBody.Filters filters =
                translate("team == 'payments' && year in [2023, 2024] && (draft == false)");

        assertThat(filters.metadata())
                .containsExactly(
                        Map.entry("team", List.of("payments")),
                        Map.entry("year", List.of("2023", "2024")),
                        Map.entry("draft", List.of("false")));
        assertThat(filters.tags()).isEmpty();
        assertThat(filters.sources()).isEmpty();
        assertThat(filters.authority()).isEmpty();
        assertThat(translate("ratio == 1.5").metadata()).containsEntry("ratio", List.of("1.5"));
    }

    @Test
    void tagsSourceAndAuthorityBecomeCairnsDocumentFilters() {
        RetrieveBody.Filters filters =
                translate(
                        "tags in ['search', 'maintenance'] && source == 'wiki'"
                                + " && authority in ['authoritative', 'supporting'] && team == 'x'");

        assertThat(filters.tags()).containsExactly("search", "maintenance");
        assertThat(filters.sources()).containsExactly("wiki");
        assertThat(filters.authority()).containsExactly("authoritative", "supporting");
        assertThat(filters.metadata()).containsOnlyKeys("team");
    }

    static Stream<Filter.Expression> unsupported() {
        Filter.Expression team = new Filter.Expression(ExpressionType.EQ, key("team"), value("a"));
        Filter.Expression year = new Filter.Expression(ExpressionType.EQ, key("year"), value(1));
        EnumSet<ExpressionType> others =
                EnumSet.complementOf(EnumSet.copyOf(FilterTranslation.SUPPORTED));
        return others.stream()
                .map(
                        type ->
                                switch (type) {
                                    case OR -> new Filter.Expression(type, team, year);
                                    case NOT -> new Filter.Expression(type, new Filter.Group(team));
                                    case ISNULL, ISNOTNULL ->
                                            new Filter.Expression(type, key("team"));
                                    case NIN ->
                                            new Filter.Expression(
                                                    type, key("team"), value(List.of("a")));
                                    default ->
                                            new Filter.Expression(type, key("year"), value(2020));
                                });
    }

    @ParameterizedTest
    @MethodSource("unsupported")
    void everyOtherOperatorIsRefusedByNameWithTheSupportedSet(Filter.Expression expression) {
        // nested under an AND, as a real filter would be
        Filter.Expression nested =
                new Filter.Expression(
                        ExpressionType.AND,
                        new Filter.Expression(ExpressionType.EQ, key("team"), value("payments")),
                        expression);

        assertThatThrownBy(() -> FilterTranslation.filters(nested))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "Cairn's retrieve filters cannot express " + expression.type() + " (in ")
                .hasMessageEndingWith("; supported: EQ and IN on a key, joined with AND");
    }

    @Test
    void theRefusedSetIsEveryOperatorButEqInAndAnd() {
        assertThat(unsupported().map(Filter.Expression::type))
                .containsExactlyInAnyOrder(
                        ExpressionType.OR,
                        ExpressionType.NE,
                        ExpressionType.GT,
                        ExpressionType.GTE,
                        ExpressionType.LT,
                        ExpressionType.LTE,
                        ExpressionType.NIN,
                        ExpressionType.NOT,
                        ExpressionType.ISNULL,
                        ExpressionType.ISNOTNULL);
    }

    @Test
    void aSecondConditionOnAKeyAndAFilterOnTitleAreRefused() {
        assertThatThrownBy(() -> translate("team == 'a' && team == 'b'"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "two conditions on 'team': Cairn's retrieve filters take one per key (use"
                                + " IN for several values)");
        assertThatThrownBy(() -> translate("tags == 'a' && tags == 'b'"))
                .as("all of two tags: Cairn's tag filter is any of")
                .hasMessageStartingWith("two conditions on 'tags'");
        assertThatThrownBy(() -> translate("title == 'Runbook'"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Cairn's retrieve filters cannot filter on 'title'; they filter on tags,"
                                + " source, authority and metadata");
        assertThatThrownBy(
                        () ->
                                FilterTranslation.filters(
                                        new Filter.Expression(
                                                ExpressionType.IN, key("team"), value(List.of()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("IN needs a non-empty list of values");
    }

    private static Filter.Key key(String name) {
        return new Filter.Key(name);
    }

    private static Filter.Value value(Object value) {
        return new Filter.Value(value);
    }
}
