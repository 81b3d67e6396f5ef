package dev.cairn.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.api.body.RetrieveBody;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.ai.vectorstore.filter.Filter;
import org.springframework.ai.vectorstore.filter.Filter.ExpressionType;

/**
 * A Spring AI filter expression as Cairn's retrieve filters, which the server applies: exactly the
 * expressions those filters can say, nothing evaluated here.
 *
 * <ul>
 *   <li>{@code key == value} and {@code key in [values]}: on {@value CairnVectorStore#TAGS} a
 *       document with any of the tags, on {@value CairnVectorStore#SOURCE} and {@value
 *       CairnVectorStore#AUTHORITY} that field, on any other key a document metadata value equal to
 *       one of them, compared as stored text (a string as it is, a number or boolean as its JSON:
 *       {@code year == 2024} matches the stored {@code "2024"});
 *   <li>{@code a && b}, and parentheses: every condition holds; one condition per key.
 * </ul>
 *
 * Everything else is refused with an {@link IllegalArgumentException} naming the operator: {@code
 * !=}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code nin}, {@code ||}, {@code not}, {@code
 * is null}, {@code is not null}; so are a second condition on the same key (for tags it would mean
 * "all of", which Cairn cannot say) and a filter on {@value CairnVectorStore#TITLE}. Stateless,
 * thread-safe.
 */
final class FilterTranslation {

    /** The operators Cairn's retrieve filters can express. */
    static final Set<ExpressionType> SUPPORTED =
            EnumSet.of(ExpressionType.EQ, ExpressionType.IN, ExpressionType.AND);

    private static final ObjectMapper JSON = new ObjectMapper();

    private FilterTranslation() {}

    /** The retrieve filters of {@code expression}; refuses what they cannot express. */
    static RetrieveBody.Filters filters(Filter.Expression expression) {
        Map<String, List<String>> conditions = new LinkedHashMap<>();
        collect(expression, conditions);
        List<String> tags = conditions.remove(CairnVectorStore.TAGS);
        List<String> sources = conditions.remove(CairnVectorStore.SOURCE);
        List<String> authority = conditions.remove(CairnVectorStore.AUTHORITY);
        return new RetrieveBody.Filters(tags, sources, authority, conditions);
    }

    private static void collect(Filter.Operand operand, Map<String, List<String>> conditions) {
        if (operand instanceof Filter.Group group) {
            collect(group.content(), conditions);
            return;
        }
        if (!(operand instanceof Filter.Expression expression)) {
            throw new IllegalArgumentException(
                    "Cairn's retrieve filters take conditions joined with AND, not " + operand);
        }
        switch (expression.type()) {
            case AND -> {
                collect(expression.left(), conditions);
                collect(expression.right(), conditions);
            }
            case EQ, IN -> {
                String key = key(expression);
                if (key.equals(CairnVectorStore.TITLE)) {
                    throw new IllegalArgumentException(
                            "Cairn's retrieve filters cannot filter on '"
                                    + CairnVectorStore.TITLE
                                    + "'; they filter on tags, source, authority and metadata");
                }
                if (conditions.containsKey(key)) {
                    throw new IllegalArgumentException(
                            "two conditions on '"
                                    + key
                                    + "': Cairn's retrieve filters take one per key (use IN"
                                    + " for several values)");
                }
                conditions.put(key, values(expression));
            }
            default ->
                    throw new IllegalArgumentException(
                            "Cairn's retrieve filters cannot express "
                                    + expression.type()
                                    + " (in "
                                    + expression
                                    + "); supported: EQ and IN on a key, joined with AND");
        }
    }

    private static String key(Filter.Expression expression) {
        if (!(expression.left() instanceof Filter.Key key)) {
            throw new IllegalArgumentException(
                    expression.type() + " needs a key on its left, in " + expression);
        }
        return key.key();
    }

    private static List<String> values(Filter.Expression expression) {
        if (!(expression.right() instanceof Filter.Value value) || value.value() == null) {
            throw new IllegalArgumentException(
                    expression.type() + " needs a value on its right, in " + expression);
        }
        Object given = value.value();
        if (expression.type() == ExpressionType.EQ) {
            return List.of(storedText(given));
        }
        if (!(given instanceof Collection<?> list) || list.isEmpty()) {
            throw new IllegalArgumentException(
                    "IN needs a non-empty list of values, in " + expression);
        }
        List<String> texts = new ArrayList<>(list.size());
        for (Object item : list) {
            texts.add(storedText(item));
        }
        return texts;
    }

    /** A value as Cairn stores document metadata: a string as it is, anything else as JSON. */
    private static String storedText(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("a filter value is null; Cairn stores no nulls");
        }
        JsonNode node = JSON.valueToTree(value);
        return node.isTextual() ? node.asText() : node.toString();
    }
}
