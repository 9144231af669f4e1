package dev.logship.ship;

import java.util.ArrayList;
import java.util.List;

/** Groups lines into batches of at most {@code size} lines. */
public final class Batcher {
    private final int size;
    private final List<String> current = new ArrayList<>();

    public Batcher(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("batch size must be positive");
        }
        this.size = size;
    }

    /** Adds a line; returns a full batch when one is complete, else null. */
    public List<String> add(String line) {
        current.add(line);
        if (current.size() < size) {
            return null;
        }
        List<String> full = new ArrayList<>(current);
        current.clear();
        return full;
    }

    /** The partial batch left at the end (possibly empty). */
    public List<String> drain() {
        List<String> rest = new ArrayList<>(current);
        current.clear();
        return rest;
    }
}
