package dev.cairn.graph;

/**
 * Finds entity mentions and stated relations in text.
 *
 * <p>Implementations are deterministic: the same text against the same gazetteer gives the same
 * answer. Thread-safe when the gazetteer is (the rule-based one is).
 */
public interface EntityExtractor {

    /**
     * Rule-based extraction against a namespace's gazetteer; names it finds that the gazetteer does
     * not know are added to it. See {@link RuleExtractor} for the rules.
     *
     * @param gazetteer the namespace's names
     * @return the extractor
     */
    static EntityExtractor rules(Gazetteer gazetteer) {
        return new RuleExtractor(gazetteer, true);
    }

    /**
     * Rule-based linking of a query: like {@link #rules} but leaves the gazetteer unchanged; names
     * it does not know still come back, with keys that may match no entity.
     *
     * @param gazetteer the namespace's names
     * @return the extractor
     */
    static EntityExtractor linker(Gazetteer gazetteer) {
        return new RuleExtractor(gazetteer, false);
    }

    /**
     * Extracts mentions and relations.
     *
     * @param text any text
     * @return mentions by offset and the relations stated between them
     */
    Extraction extract(String text);
}
