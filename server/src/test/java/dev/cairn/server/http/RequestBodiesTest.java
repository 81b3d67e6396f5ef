package dev.cairn.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Strict request bodies and their plain-language 400 details. */
class RequestBodiesTest {

    record Filters(List<String> tags, Double weight) {}

    record Sample(String query, Integer topK, Boolean explain, Filters filters) {}

    private static Sample bind(String json) {
        return RequestBodies.bind(
                RequestBodies.parseObject(json.getBytes(StandardCharsets.UTF_8)), Sample.class);
    }

    private static String detail(String json) {
        try {
            bind(json);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("bound without a problem: " + json);
    }

    @Test
    void bindsAbsentFieldsAsNull() {
        Sample s = bind("{\"query\":\"x\",\"filters\":{\"tags\":[\"a\"]}}");
        assertThat(s.query()).isEqualTo("x");
        assertThat(s.topK()).isNull();
        assertThat(s.filters().tags()).containsExactly("a");
    }

    @Test
    void unknownFieldNamesItAndTheKnownOnesInDeclarationOrder() {
        assertThat(detail("{\"query\":\"x\",\"top_k\":1}"))
                .isEqualTo("unknown field 'top_k'; known fields: query, topK, explain, filters");
        assertThat(detail("{\"filters\":{\"tag\":[]}}"))
                .isEqualTo("unknown field 'filters.tag'; known fields: tags, weight");
    }

    @Test
    void wrongTypesNameTheFieldAndWhatItMustBe() {
        assertThat(detail("{\"topK\":\"5\"}"))
                .isEqualTo("field 'topK' must be an integer, got a string");
        assertThat(detail("{\"topK\":1.5}"))
                .isEqualTo("field 'topK' must be an integer, got a number with a fraction");
        assertThat(detail("{\"query\":5}"))
                .isEqualTo("field 'query' must be a string, got an integer");
        assertThat(detail("{\"query\":true}"))
                .isEqualTo("field 'query' must be a string, got true");
        assertThat(detail("{\"query\":{}}"))
                .isEqualTo("field 'query' must be a string, got an object");
        assertThat(detail("{\"explain\":1}"))
                .isEqualTo("field 'explain' must be true or false, got an integer");
        assertThat(detail("{\"filters\":[]}"))
                .isEqualTo("field 'filters' must be an object, got an array");
        assertThat(detail("{\"filters\":{\"tags\":\"a\"}}"))
                .isEqualTo("field 'filters.tags' must be an array, got a string");
        assertThat(detail("{\"filters\":{\"tags\":[\"a\",2]}}"))
                .isEqualTo("field 'filters.tags[1]' must be a string, got an integer");
        assertThat(detail("{\"filters\":{\"weight\":\"high\"}}"))
                .isEqualTo("field 'filters.weight' must be a number, got a string");
    }

    @Test
    void nullFieldIsAbsentButNullInsideAnArrayIsRefused() {
        assertThat(bind("{\"query\":null}").query()).isNull();
        assertThat(detail("{\"filters\":{\"tags\":[\"a\",null]}}"))
                .isEqualTo("field 'filters.tags[1]' must not be null");
    }

    @Test
    void outOfRangeIntegerNamesTheField() {
        assertThat(detail("{\"topK\":99999999999}")).startsWith("field 'topK' is out of range");
    }

    @Test
    void malformedJsonNamesLineAndColumn() {
        assertThat(detail("{\"query\": ")).startsWith("malformed JSON at line 1, column ");
        assertThat(detail("{\"query\": }")).contains("unexpected character '}'");
        assertThat(detail("{\"query\": nope}")).contains("unrecognized word 'nope'");
    }

    @Test
    void contentAfterTheValueIsRefused() {
        assertThat(detail("{\"query\":\"x\"} {}"))
                .isEqualTo("unexpected content after the JSON value at line 1, column 15");
        assertThat(detail("{\"query\":\"x\"} garbage")).startsWith("malformed JSON at line 1");
    }

    @Test
    void repeatedKeyIsRefused() {
        assertThat(detail("{\"query\":\"x\",\"query\":\"y\"}"))
                .startsWith("field 'query' appears more than once");
    }

    @Test
    void deepNestingIsRefusedInPlainWords() {
        String deep = "{\"a\":" + "[".repeat(1200) + "]".repeat(1200) + "}";
        assertThat(detail(deep))
                .isEqualTo("the JSON nests deeper than 1000 levels of objects and arrays");
    }

    @Test
    void otherValuesThanAnObjectAreRefused() {
        assertThatThrownBy(() -> RequestBodies.parseObject("[1]".getBytes(StandardCharsets.UTF_8)))
                .hasMessage("expected a JSON object, got an array");
        assertThatThrownBy(() -> RequestBodies.parseObject("  ".getBytes(StandardCharsets.UTF_8)))
                .hasMessage("request body is empty, expected a JSON object");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"query\": ",
                "{\"query\": }",
                "{\"query\": nope}",
                "{\"query\":\"x\"} {}",
                "{\"query\":\"x\",\"query\":\"y\"}",
                "{\"topK\":99999999999}",
                "{\"topK\":1e400}",
                "{\"topK\":[1]}",
                "{\"query\":\"a\u0001b\"}",
                "{\"query\":\"\\q\"}",
                "{'query':1}",
                "{\"query\":\"x\",}",
                "{\"filters\":{\"tags\":[null]}}",
                "{\"filters\":{\"weight\":[]}}",
                "[]",
                "\"text\"",
                "nul",
                "{\"a\":1}"
            })
    void noDetailNamesTheParserOrItsInternals(String json) {
        String detail = detail(json);
        assertThat(detail)
                .doesNotContainIgnoringCase("jackson")
                .doesNotContain("com.fasterxml")
                .doesNotContain("StreamRead")
                .doesNotContain("Feature")
                .doesNotContain("`")
                .doesNotContain("Exception")
                .doesNotContain("dev.cairn")
                .doesNotContain("$")
                .doesNotContain("()");
    }
}
