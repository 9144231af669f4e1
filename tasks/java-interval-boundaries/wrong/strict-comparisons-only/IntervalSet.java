package intervals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Operations on collections of intervals. */
public final class IntervalSet {
    private IntervalSet() {}

    /** The union of {@code input} as sorted, disjoint intervals. */
    public static List<Interval> merge(List<Interval> input) {
        List<Interval> sorted = new ArrayList<>(input);
        Collections.sort(sorted);
        List<Interval> out = new ArrayList<>();
        for (Interval next : sorted) {
            if (!out.isEmpty()) {
                Interval last = out.get(out.size() - 1);
                if (next.start() <= last.end()) {
                    out.set(out.size() - 1, new Interval(last.start(), Math.max(last.end(), next.end())));
                    continue;
                }
            }
            out.add(next);
        }
        return out;
    }

    /** Total number of integers covered by {@code input}. */
    public static long coverage(List<Interval> input) {
        long total = 0;
        for (Interval i : merge(input)) {
            total += i.length();
        }
        return total;
    }
}
