package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnWindowsTest {

    /** "w1 w2 ... wN". */
    static String words(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add("w" + i);
        }
        return String.join(" ", out);
    }

    @Test
    void aShortLineHasNoWindowsAndALongOneHalfOverlappingWindowsToItsEnd() {
        assertThat(TurnWindows.of(words(TurnWindows.ABOVE))).isEmpty();
        assertThat(TurnWindows.of("")).isEmpty();

        List<String> windows = TurnWindows.of(words(70));

        assertThat(windows).hasSize(4);
        assertThat(windows.get(0)).isEqualTo(words(32));
        assertThat(windows.get(0).split(" ")).hasSize(TurnWindows.WORDS);
        assertThat(windows.get(1)).startsWith("w17 ").endsWith(" w48");
        assertThat(windows.getLast()).startsWith("w49 ").endsWith(" w70");
        assertThat(TurnWindows.of(words(TurnWindows.ABOVE + 1))).hasSize(1);
    }

    @Test
    void theWindowsAreOfTheOwnLineAndCarryItsLabel() {
        String exchange = "Mel: how was the trip?\nCaro: " + words(40);

        List<String> windows = TurnWindows.of(exchange);

        assertThat(windows).hasSize(2);
        assertThat(windows).allSatisfy(w -> assertThat(w).startsWith("Caro: w"));
        assertThat(windows.get(0)).isEqualTo("Caro: " + words(32));
        assertThat(windows.get(1)).startsWith("Caro: w17 ").endsWith(" w40");
        // the turn answered is context, not part of the windows
        assertThat(String.join(" ", windows)).doesNotContain("trip");
        assertThat(TurnWindows.of(words(40) + "\nCaro: ok")).isEmpty();
    }
}
