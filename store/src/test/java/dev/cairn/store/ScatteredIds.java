package dev.cairn.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Lists of ids for the tests of reads and deletes by a list of ids ({@link OneOf}): the ids that
 * must match, scattered among ids that match nothing, in a list of three batches with a matching id
 * on each side of each boundary, then each matching id again.
 */
public final class ScatteredIds {

    /** The prefix of the ids that match nothing; no test row has an id starting with it. */
    public static final String ABSENT = "absent-";

    /** Distinct ids in a list: two batches and one more. */
    public static final int SIZE = 2 * OneOf.BATCH + 1;

    private ScatteredIds() {}

    /**
     * {@code wanted}, the first of them at the first and last places of the batches and the others
     * at random places (seeded), among {@link #ABSENT} ids; then {@code wanted} again, reversed.
     */
    public static List<String> among(List<String> wanted, long seed) {
        if (wanted.size() > SIZE) {
            throw new IllegalArgumentException(
                    "illegal wanted: " + wanted.size() + " ids, must be <= " + SIZE);
        }
        List<Integer> places = new ArrayList<>();
        for (int edge :
                new int[] {0, OneOf.BATCH - 1, OneOf.BATCH, 2 * OneOf.BATCH - 1, SIZE - 1}) {
            places.add(edge);
        }
        List<Integer> others = new ArrayList<>();
        for (int i = 0; i < SIZE; i++) {
            if (!places.contains(i)) {
                others.add(i);
            }
        }
        Collections.shuffle(others, new Random(seed));
        places.addAll(others);
        String[] list = new String[SIZE];
        for (int i = 0; i < wanted.size(); i++) {
            list[places.get(i)] = wanted.get(i);
        }
        for (int i = 0; i < SIZE; i++) {
            if (list[i] == null) {
                list[i] = ABSENT + i;
            }
        }
        List<String> out = new ArrayList<>(List.of(list));
        out.addAll(wanted.reversed());
        return out;
    }
}
