package dev.cairn.judge;

import java.util.List;

/**
 * One claim of an answer, before judging.
 *
 * <p>Immutable and thread-safe.
 *
 * @param text the claim with citations stripped and whitespace collapsed
 * @param cited indices into the input's evidence list, in citation order, without duplicates
 * @param unresolved citation markers that named no evidence, as written
 */
record Claim(String text, List<Integer> cited, List<String> unresolved) {

    Claim {
        cited = List.copyOf(cited);
        unresolved = List.copyOf(unresolved);
    }
}
