package dev.cairn.memory.service;

import dev.cairn.memory.Layer;
import dev.cairn.memory.MemoryType;
import java.util.List;
import java.util.Objects;

/** One change to an existing memory, as {@code PUT memories/{id}} asks for it. */
public sealed interface MemoryEdit {

    /** New content: passes write safety and redaction again, and is re-embedded. */
    record Content(String text) implements MemoryEdit {
        public Content {
            Objects.requireNonNull(text, "text");
            if (text.isBlank()) {
                throw new IllegalArgumentException("illegal content: blank, must have text");
            }
        }
    }

    /** Replaces the tags. */
    record Tags(List<String> tags) implements MemoryEdit {
        public Tags {
            tags = List.copyOf(tags);
        }
    }

    record Confidence(double value) implements MemoryEdit {}

    record Importance(double value) implements MemoryEdit {}

    record LayerEdit(Layer layer) implements MemoryEdit {
        public LayerEdit {
            Objects.requireNonNull(layer, "layer");
        }
    }

    record TypeEdit(MemoryType type) implements MemoryEdit {
        public TypeEdit {
            Objects.requireNonNull(type, "type");
        }
    }

    /** A new conflict key ("" removes it); does not supersede retroactively. */
    record ConflictKey(String key) implements MemoryEdit {
        public ConflictKey {
            key = Objects.requireNonNull(key, "key").strip();
        }
    }
}
