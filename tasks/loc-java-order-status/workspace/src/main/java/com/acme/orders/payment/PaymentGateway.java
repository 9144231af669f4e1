package com.acme.orders.payment;

/** The payment provider, behind an interface so tests and the demo use a fake one. */
public interface PaymentGateway {
    PaymentResult capture(String orderId, long amountCents);
}
