package com.acme.orders.service;

import java.util.List;

import com.acme.orders.fulfilment.CarrierEvent;
import com.acme.orders.fulfilment.CarrierEventHandler;
import com.acme.orders.fulfilment.DeliveryPolicy;
import com.acme.orders.fulfilment.StatusResolver;
import com.acme.orders.model.Order;
import com.acme.orders.model.OrderLine;
import com.acme.orders.model.OrderStatus;
import com.acme.orders.model.ParcelState;
import com.acme.orders.payment.PaymentGateway;
import com.acme.orders.payment.PaymentResult;
import com.acme.orders.repo.OrderRepository;

/** The operations the shop front end and the carrier webhook call. */
public final class OrderService {
    private final OrderRepository repo;
    private final PaymentGateway payments;
    private final CarrierEventHandler carrier = new CarrierEventHandler();
    private final StatusResolver statuses = new StatusResolver(new DeliveryPolicy());

    public OrderService(OrderRepository repo, PaymentGateway payments) {
        this.repo = repo;
        this.payments = payments;
    }

    public Order place(String orderId, String customerId, List<OrderLine> lines) {
        Order order = new Order(orderId, customerId, lines);
        repo.save(order);
        return order;
    }

    public boolean pay(String orderId) {
        Order order = repo.get(orderId);
        PaymentResult r = payments.capture(orderId, order.totalCents());
        if (r.captured()) order.markPaid();
        return r.captured();
    }

    public void addParcel(String orderId, String trackingId) {
        repo.get(orderId).addParcel(trackingId);
    }

    public void removeParcel(String orderId, String trackingId) {
        Order order = repo.get(orderId);
        order.parcel(trackingId)
                .orElseThrow(() -> new IllegalArgumentException("no parcel " + trackingId))
                .moveTo(ParcelState.CANCELLED);
    }

    public boolean onCarrierEvent(String orderId, String trackingId, String code) {
        return carrier.apply(repo.get(orderId), new CarrierEvent(trackingId, code));
    }

    public void cancel(String orderId) { repo.get(orderId).cancel(); }

    public OrderStatus status(String orderId) {
        return statuses.resolve(repo.get(orderId));
    }
}
