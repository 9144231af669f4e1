package com.acme.orders.model;

import java.util.Objects;

public final class Parcel {
    private final String trackingId;
    private ParcelState state = ParcelState.PACKED;

    public Parcel(String trackingId) {
        this.trackingId = Objects.requireNonNull(trackingId, "trackingId");
    }

    public String trackingId() { return trackingId; }
    public ParcelState state() { return state; }
    public boolean isDelivered() { return state == ParcelState.DELIVERED; }
    public boolean isCancelled() { return state == ParcelState.CANCELLED; }

    public void moveTo(ParcelState next) {
        if (state == ParcelState.CANCELLED || state == ParcelState.DELIVERED) {
            throw new IllegalStateException("parcel " + trackingId + " is already " + state);
        }
        if (next == ParcelState.CANCELLED && state != ParcelState.PACKED) {
            throw new IllegalStateException("parcel " + trackingId + " has left the warehouse");
        }
        state = next;
    }
}
