package com.acme.orders.portal;

import com.acme.orders.model.OrderStatus;

/** The text the customer portal shows next to an order. */
public final class StatusView {
    private StatusView() {}

    public static String label(OrderStatus status) {
        switch (status) {
            case PAYMENT_PENDING: return "Waiting for payment";
            case AWAITING_SHIPMENT: return "Being packed";
            case SHIPPED: return "On its way";
            case PARTIALLY_DELIVERED: return "Partly delivered";
            case DELIVERED: return "Delivered";
            case CANCELLED: return "Cancelled";
            default: throw new IllegalArgumentException("unknown status " + status);
        }
    }
}
