package intervals;

import java.util.Objects;

/** A half-open integer interval [start, end). */
public final class Interval implements Comparable<Interval> {
    private final int start;
    private final int end;

    public Interval(int start, int end) {
        if (end < start) {
            throw new IllegalArgumentException("end " + end + " is before start " + start);
        }
        this.start = start;
        this.end = end;
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    public int length() {
        return end - start;
    }

    public boolean isEmpty() {
        return start == end;
    }

    public boolean contains(int x) {
        return start <= x && x < end;
    }

    public boolean overlaps(Interval other) {
        return start < other.end && other.start < end;
    }

    @Override
    public int compareTo(Interval o) {
        if (start != o.start) {
            return Integer.compare(start, o.start);
        }
        return Integer.compare(end, o.end);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Interval)) {
            return false;
        }
        Interval i = (Interval) o;
        return start == i.start && end == i.end;
    }

    @Override
    public int hashCode() {
        return Objects.hash(start, end);
    }

    @Override
    public String toString() {
        return "[" + start + "," + end + ")";
    }
}
