package com.acme.orders.repo;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import com.acme.orders.model.Order;

/** In-memory order store (the real one is a database table with the same interface). */
public final class OrderRepository {
    private final Map<String, Order> orders = new LinkedHashMap<>();

    public void save(Order order) { orders.put(order.id(), order); }

    public Optional<Order> find(String id) { return Optional.ofNullable(orders.get(id)); }

    public Order get(String id) {
        return find(id).orElseThrow(() -> new IllegalArgumentException("no order " + id));
    }
}
