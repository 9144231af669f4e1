package com.acme.orders.payment;

import java.util.concurrent.atomic.AtomicInteger;

/** Accepts every capture below the limit; used by the demo and in tests. */
public final class FakeGateway implements PaymentGateway {
    private final long limitCents;
    private final AtomicInteger seq = new AtomicInteger();

    public FakeGateway(long limitCents) { this.limitCents = limitCents; }

    @Override
    public PaymentResult capture(String orderId, long amountCents) {
        boolean ok = amountCents <= limitCents;
        return new PaymentResult(orderId, amountCents, ok, ok ? "pay-" + seq.incrementAndGet() : null);
    }
}
