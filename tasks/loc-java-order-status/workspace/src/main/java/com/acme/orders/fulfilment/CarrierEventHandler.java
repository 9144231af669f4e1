package com.acme.orders.fulfilment;

import com.acme.orders.model.Order;
import com.acme.orders.model.Parcel;
import com.acme.orders.model.ParcelState;

/** Applies carrier tracking events to the parcels of an order. Duplicate events are ignored. */
public final class CarrierEventHandler {

    public boolean apply(Order order, CarrierEvent event) {
        Parcel parcel = order.parcel(event.trackingId()).orElseThrow(
                () -> new IllegalArgumentException("order " + order.id() + " has no parcel " + event.trackingId()));
        if (parcel.isCancelled() || parcel.isDelivered()) {
            return false;
        }
        if (event.isDelivery()) {
            parcel.moveTo(ParcelState.DELIVERED);
            return true;
        }
        if (event.isMovement() && parcel.state() == ParcelState.PACKED) {
            parcel.moveTo(ParcelState.IN_TRANSIT);
            return true;
        }
        return false;
    }
}
