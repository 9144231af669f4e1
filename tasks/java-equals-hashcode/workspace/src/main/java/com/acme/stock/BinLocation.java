package com.acme.stock;

/** A shelf position in a warehouse, e.g. "B-04-2" (aisle, rack, level). */
public record BinLocation(String warehouse, String aisle, int rack, int level) {
    public BinLocation {
        if (rack < 1 || level < 0) throw new IllegalArgumentException("bad bin " + aisle + "-" + rack + "-" + level);
    }

    public static BinLocation parse(String warehouse, String text) {
        String[] parts = text.strip().split("-");
        if (parts.length != 3) throw new IllegalArgumentException("bin must look like A-01-0: " + text);
        return new BinLocation(warehouse, parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
    }

    @Override
    public String toString() {
        return warehouse + ":" + aisle + "-" + String.format("%02d", rack) + "-" + level;
    }
}
