package com.acme.orders;

import java.util.List;

import com.acme.orders.model.OrderLine;
import com.acme.orders.payment.FakeGateway;
import com.acme.orders.portal.StatusView;
import com.acme.orders.repo.OrderRepository;
import com.acme.orders.service.OrderService;

/** Replays the life of a two-parcel order and prints what the portal shows after each step. */
public final class Main {
    public static void main(String[] args) {
        OrderService svc = new OrderService(new OrderRepository(), new FakeGateway(1_000_00));
        svc.place("O-7781", "C-12", List.of(new OrderLine("DESK-1", 1, 249_00), new OrderLine("LAMP-2", 2, 39_90)));
        show(svc, "placed");
        svc.pay("O-7781");
        show(svc, "paid");
        svc.addParcel("O-7781", "TRK-1");
        svc.addParcel("O-7781", "TRK-2");
        svc.onCarrierEvent("O-7781", "TRK-1", "PU");
        svc.onCarrierEvent("O-7781", "TRK-2", "PU");
        show(svc, "both parcels picked up");
        svc.onCarrierEvent("O-7781", "TRK-2", "DL");
        show(svc, "lamp parcel delivered");
        svc.onCarrierEvent("O-7781", "TRK-1", "DL");
        show(svc, "desk parcel delivered");
    }

    private static void show(OrderService svc, String step) {
        System.out.printf("%-24s %s%n", step + ":", StatusView.label(svc.status("O-7781")));
    }
}
