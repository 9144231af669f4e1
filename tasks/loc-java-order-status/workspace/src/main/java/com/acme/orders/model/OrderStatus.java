package com.acme.orders.model;

/** What the customer portal shows for an order, derived from payment and parcels. */
public enum OrderStatus {
    PAYMENT_PENDING,
    AWAITING_SHIPMENT,
    SHIPPED,
    PARTIALLY_DELIVERED,
    DELIVERED,
    CANCELLED
}
