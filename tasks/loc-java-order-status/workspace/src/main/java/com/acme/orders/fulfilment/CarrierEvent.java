package com.acme.orders.fulfilment;

/** A tracking update as the carrier's webhook sends it. */
public record CarrierEvent(String trackingId, String code) {

    /** Carrier codes: PU picked up, TR in transit, OD out for delivery, DL delivered. */
    public boolean isDelivery() { return "DL".equals(code); }

    public boolean isMovement() { return "PU".equals(code) || "TR".equals(code) || "OD".equals(code); }
}
