package com.acme.orders.model;

public record OrderLine(String sku, int quantity, long unitCents) {
    public OrderLine {
        if (quantity <= 0) throw new IllegalArgumentException("quantity must be positive: " + quantity);
        if (unitCents < 0) throw new IllegalArgumentException("negative price for " + sku);
    }

    public long totalCents() { return unitCents * quantity; }
}
