package dev.cairn.agents.kv;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyValueMemoryTest {

    @Test
    void chunksWithTheDefaultSizeAndOverlap() {
        String text = "x".repeat(2500);
        List<String> chunks =
                KeyValueMemory.chunk(
                        text,
                        KeyValueMemory.DEFAULT_CHUNK_SIZE,
                        KeyValueMemory.DEFAULT_CHUNK_OVERLAP);
        assertThat(chunks).extracting(String::length).containsExactly(1000, 1000, 900);
    }

    @Test
    void consecutiveChunksShareTheOverlap() {
        String text = "abcdefghijklmnopqrstuvwxyz";
        List<String> chunks = KeyValueMemory.chunk(text, 10, 3);
        assertThat(chunks).containsExactly("abcdefghij", "hijklmnopq", "opqrstuvwx", "vwxyz");
        assertThat(KeyValueMemory.chunk("short", 10, 3)).containsExactly("short");
        assertThat(KeyValueMemory.chunk("   ", 10, 3)).isEmpty();
    }
}
