package com.acme.orders.fulfilment;

import com.acme.orders.model.Order;
import com.acme.orders.model.OrderStatus;

/** Derives the portal status from the order's payment and parcels; nothing stores it. */
public final class StatusResolver {
    private final DeliveryPolicy policy;

    public StatusResolver(DeliveryPolicy policy) {
        this.policy = policy;
    }

    public OrderStatus resolve(Order order) {
        if (order.isCancelled()) return OrderStatus.CANCELLED;
        if (!order.isPaid()) return OrderStatus.PAYMENT_PENDING;
        if (policy.isComplete(order)) return OrderStatus.DELIVERED;
        if (policy.anyDelivered(order)) return OrderStatus.PARTIALLY_DELIVERED;
        if (policy.anyDispatched(order)) return OrderStatus.SHIPPED;
        return OrderStatus.AWAITING_SHIPMENT;
    }
}
