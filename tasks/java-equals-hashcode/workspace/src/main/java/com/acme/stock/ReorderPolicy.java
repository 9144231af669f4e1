package com.acme.stock;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Minimum stock per SKU; anything below it goes on the reorder list. */
public final class ReorderPolicy {
    private final Map<Sku, Integer> minimum = new HashMap<>();

    public ReorderPolicy require(Sku sku, int min) {
        minimum.put(sku, min);
        return this;
    }

    public Map<Sku, Integer> shortfalls(StockLedger ledger) {
        Map<Sku, Integer> out = new TreeMap<>();
        for (Map.Entry<Sku, Integer> e : minimum.entrySet()) {
            int missing = e.getValue() - ledger.quantity(e.getKey());
            if (missing > 0) out.put(e.getKey(), missing);
        }
        return out;
    }
}
