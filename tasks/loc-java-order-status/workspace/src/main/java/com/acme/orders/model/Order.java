package com.acme.orders.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

public final class Order {
    private final String id;
    private final String customerId;
    private final List<OrderLine> lines;
    private final List<Parcel> parcels = new ArrayList<>();
    private boolean paid;
    private boolean cancelled;

    public Order(String id, String customerId, List<OrderLine> lines) {
        if (lines.isEmpty()) throw new IllegalArgumentException("order " + id + " has no lines");
        this.id = id;
        this.customerId = customerId;
        this.lines = List.copyOf(lines);
    }

    public String id() { return id; }
    public String customerId() { return customerId; }
    public List<OrderLine> lines() { return lines; }
    public List<Parcel> parcels() { return Collections.unmodifiableList(parcels); }
    public boolean isPaid() { return paid; }
    public boolean isCancelled() { return cancelled; }

    public long totalCents() {
        return lines.stream().mapToLong(OrderLine::totalCents).sum();
    }

    public void markPaid() { paid = true; }

    public void cancel() {
        if (parcels.stream().anyMatch(p -> p.state() != ParcelState.PACKED && !p.isCancelled())) {
            throw new IllegalStateException("order " + id + " has parcels on the way");
        }
        cancelled = true;
    }

    public Parcel addParcel(String trackingId) {
        Parcel p = new Parcel(trackingId);
        parcels.add(p);
        return p;
    }

    public Optional<Parcel> parcel(String trackingId) {
        return parcels.stream().filter(p -> p.trackingId().equals(trackingId)).findFirst();
    }
}
