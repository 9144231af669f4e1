package com.acme.orders.model;

public enum ParcelState {
    /** Packed, label printed, not yet handed to the carrier. */
    PACKED,
    IN_TRANSIT,
    DELIVERED,
    /** Taken out of the shipment before dispatch (items merged into another parcel). */
    CANCELLED
}
