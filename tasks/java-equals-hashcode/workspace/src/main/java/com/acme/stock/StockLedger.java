package com.acme.stock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Stock on hand per SKU (and per bin), built from movements. */
public final class StockLedger {
    private final Map<Sku, Integer> onHand = new HashMap<>();
    private final Map<Sku, Map<BinLocation, Integer>> byBin = new HashMap<>();
    private final Set<Sku> blocked = new HashSet<>();
    private final List<StockMovement> journal = new ArrayList<>();

    public void apply(StockMovement m) {
        if (blocked.contains(m.sku()) && m.quantity() < 0) {
            throw new IllegalStateException("SKU " + m.sku() + " is blocked for picking");
        }
        int now = onHand.getOrDefault(m.sku(), 0) + m.quantity();
        if (now < 0) {
            throw new IllegalStateException("not enough " + m.sku() + ": " + (now - m.quantity()) + " on hand");
        }
        onHand.put(m.sku(), now);
        byBin.computeIfAbsent(m.sku(), k -> new HashMap<>()).merge(m.bin(), m.quantity(), Integer::sum);
        journal.add(m);
    }

    public int quantity(Sku sku) {
        return onHand.getOrDefault(sku, 0);
    }

    public Map<BinLocation, Integer> bins(Sku sku) {
        return Collections.unmodifiableMap(byBin.getOrDefault(sku, Map.of()));
    }

    public void block(Sku sku) { blocked.add(sku); }

    public void unblock(Sku sku) { blocked.remove(sku); }

    public boolean isBlocked(Sku sku) { return blocked.contains(sku); }

    /** Number of distinct SKUs with any stock history. */
    public int skuCount() { return onHand.size(); }

    /** Stock per SKU, sorted by canonical code. */
    public Map<Sku, Integer> snapshot() {
        return Collections.unmodifiableMap(new TreeMap<>(onHand));
    }

    public List<StockMovement> journal() { return Collections.unmodifiableList(journal); }
}
