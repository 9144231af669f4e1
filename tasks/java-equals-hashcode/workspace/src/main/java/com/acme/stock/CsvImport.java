package com.acme.stock;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Goods-receipt files from the scanners: "sku,quantity,bin,reference" per line, '#' comments. */
public final class CsvImport {
    private CsvImport() {}

    public static List<StockMovement> parse(String warehouse, String text, Instant at) {
        List<StockMovement> out = new ArrayList<>();
        String[] lines = text.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            String[] f = line.split(",", -1);
            if (f.length != 4) throw new IllegalArgumentException("line " + (i + 1) + ": expected 4 fields, got " + f.length);
            try {
                out.add(new StockMovement(Sku.of(f[0]), BinLocation.parse(warehouse, f[2]),
                        Integer.parseInt(f[1].strip()), f[3].strip(), at));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return out;
    }
}
