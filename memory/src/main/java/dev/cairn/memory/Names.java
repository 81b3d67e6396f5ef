package dev.cairn.memory;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Parsing of enum names for the public parsing helpers. Stateless, thread-safe. */
final class Names {
    private Names() {}

    static <E extends Enum<E>> E parse(Class<E> type, String what, String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(
                    "missing " + what + ", must be one of " + allowed(type));
        }
        String key = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(key)) {
                return e;
            }
        }
        throw new IllegalArgumentException(
                "unknown "
                        + what
                        + ": '"
                        + abbreviate(name)
                        + "', must be one of "
                        + allowed(type));
    }

    static <E extends Enum<E>> String allowed(Class<E> type) {
        return Arrays.stream(type.getEnumConstants())
                .map(Enum::name)
                .collect(Collectors.joining(", ", "[", "]"));
    }

    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
