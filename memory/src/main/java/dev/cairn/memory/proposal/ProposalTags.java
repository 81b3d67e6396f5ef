package dev.cairn.memory.proposal;

import dev.cairn.memory.TextNormalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * The tags a memory proposal suggests: the first line of its description that starts with {@code
 * Tags:} (case-insensitive, after leading whitespace and list markers {@code -*}), split on commas,
 * semicolons and whitespace, each tag normalised ({@link TextNormalizer#normalizeTag}), empty ones
 * dropped, duplicates removed, in order. Later {@code Tags:} lines and tags mentioned anywhere else
 * are ignored. Stateless, thread-safe.
 */
public final class ProposalTags {

    private ProposalTags() {}

    public static List<String> fromDescription(String description) {
        for (String line : description.split("\\R")) {
            String s = line.strip();
            while (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '*')) {
                s = s.substring(1).strip();
            }
            if (s.length() >= 5 && s.substring(0, 5).toLowerCase(Locale.ROOT).equals("tags:")) {
                LinkedHashSet<String> tags = new LinkedHashSet<>();
                for (String raw : s.substring(5).split("[,;\\s]+")) {
                    String t = TextNormalizer.normalizeTag(raw.replace("#", ""));
                    if (!t.isEmpty()) {
                        tags.add(t);
                    }
                }
                return List.copyOf(new ArrayList<>(tags));
            }
        }
        return List.of();
    }
}
