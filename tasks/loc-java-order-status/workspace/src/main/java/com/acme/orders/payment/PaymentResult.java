package com.acme.orders.payment;

public record PaymentResult(String orderId, long amountCents, boolean captured, String reference) {}
