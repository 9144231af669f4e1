package com.acme.orders.fulfilment;

import java.util.List;
import java.util.stream.Collectors;

import com.acme.orders.model.Order;
import com.acme.orders.model.Parcel;
import com.acme.orders.model.ParcelState;

/**
 * Delivery rules. Only active parcels count: a cancelled parcel was taken out of the shipment
 * before dispatch and will never arrive.
 */
public final class DeliveryPolicy {

    public List<Parcel> activeParcels(Order order) {
        return order.parcels().stream().filter(p -> !p.isCancelled()).collect(Collectors.toList());
    }

    /** True when some active parcel has left the warehouse. */
    public boolean anyDispatched(Order order) {
        return activeParcels(order).stream().anyMatch(p -> p.state() != ParcelState.PACKED);
    }

    /** True when at least one active parcel has arrived. */
    public boolean anyDelivered(Order order) {
        return activeParcels(order).stream().anyMatch(Parcel::isDelivered);
    }

    public boolean isComplete(Order order) {
        for (Parcel parcel : activeParcels(order)) {
            if (parcel.isDelivered()) return true;
        }
        return false;
    }
}
