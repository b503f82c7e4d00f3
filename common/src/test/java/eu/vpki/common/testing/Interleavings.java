package eu.vpki.common.testing;

import java.util.ArrayList;
import java.util.List;

/** Every order in which FIFO delivery may hand several origins' messages to one replica. */
public final class Interleavings {
    private Interleavings() {
    }

    /** Every interleaving of the origins' lists that keeps each origin's order: (n1 + ... + nk)! / (n1! ... nk!) of them. */
    public static <T> List<List<T>> of(List<List<T>> origins) {
        List<List<T>> all = new ArrayList<>();
        interleave(origins, new int[origins.size()], new ArrayList<>(), all);
        return all;
    }

    private static <T> void interleave(List<List<T>> origins, int[] next, List<T> prefix, List<List<T>> all) {
        boolean any = false;
        for (int o = 0; o < origins.size(); o++) {
            if (next[o] < origins.get(o).size()) {
                any = true;
                prefix.add(origins.get(o).get(next[o]++));
                interleave(origins, next, prefix, all);
                next[o]--;
                prefix.remove(prefix.size() - 1);
            }
        }
        if (!any) {
            all.add(List.copyOf(prefix));
        }
    }
}
