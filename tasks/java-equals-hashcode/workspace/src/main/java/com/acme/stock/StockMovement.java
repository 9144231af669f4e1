package com.acme.stock;

import java.time.Instant;

/** One change of stock: positive quantities are receipts, negative ones picks. */
public record StockMovement(Sku sku, BinLocation bin, int quantity, String reference, Instant at) {}
