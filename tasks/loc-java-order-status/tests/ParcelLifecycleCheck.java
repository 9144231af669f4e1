import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.Before;
import org.junit.Test;

import com.acme.orders.fulfilment.DeliveryPolicy;
import com.acme.orders.model.Order;
import com.acme.orders.model.OrderLine;
import com.acme.orders.model.OrderStatus;
import com.acme.orders.payment.FakeGateway;
import com.acme.orders.repo.OrderRepository;
import com.acme.orders.service.OrderService;

public class ParcelLifecycleCheck {
    private OrderService svc;

    @Before
    public void setUp() {
        svc = new OrderService(new OrderRepository(), new FakeGateway(10_000_00));
        svc.place("O1", "C1", List.of(new OrderLine("A", 1, 100_00), new OrderLine("B", 2, 5_00)));
        assertTrue(svc.pay("O1"));
    }

    @Test
    public void firstOfTwoParcelsDeliveredIsPartial() {
        svc.addParcel("O1", "T1");
        svc.addParcel("O1", "T2");
        svc.onCarrierEvent("O1", "T1", "PU");
        svc.onCarrierEvent("O1", "T2", "PU");
        assertEquals(OrderStatus.SHIPPED, svc.status("O1"));
        svc.onCarrierEvent("O1", "T2", "DL");
        assertEquals(OrderStatus.PARTIALLY_DELIVERED, svc.status("O1"));
        svc.onCarrierEvent("O1", "T1", "DL");
        assertEquals(OrderStatus.DELIVERED, svc.status("O1"));
    }

    @Test
    public void deliveredBeforeOtherParcelLeavesWarehouseIsPartial() {
        svc.addParcel("O1", "T1");
        svc.addParcel("O1", "T2");
        svc.onCarrierEvent("O1", "T1", "DL");
        assertEquals(OrderStatus.PARTIALLY_DELIVERED, svc.status("O1"));
    }

    @Test
    public void threeParcelsNeedAllThree() {
        for (String t : new String[] {"T1", "T2", "T3"}) svc.addParcel("O1", t);
        svc.onCarrierEvent("O1", "T1", "DL");
        svc.onCarrierEvent("O1", "T3", "DL");
        assertEquals(OrderStatus.PARTIALLY_DELIVERED, svc.status("O1"));
        svc.onCarrierEvent("O1", "T2", "TR");
        assertEquals(OrderStatus.PARTIALLY_DELIVERED, svc.status("O1"));
        svc.onCarrierEvent("O1", "T2", "DL");
        assertEquals(OrderStatus.DELIVERED, svc.status("O1"));
    }

    @Test
    public void singleParcelDelivered() {
        svc.addParcel("O1", "T1");
        assertEquals(OrderStatus.AWAITING_SHIPMENT, svc.status("O1"));
        svc.onCarrierEvent("O1", "T1", "OD");
        assertEquals(OrderStatus.SHIPPED, svc.status("O1"));
        svc.onCarrierEvent("O1", "T1", "DL");
        assertEquals(OrderStatus.DELIVERED, svc.status("O1"));
    }

    @Test
    public void cancelledParcelDoesNotHoldBackDelivery() {
        svc.addParcel("O1", "T1");
        svc.addParcel("O1", "T2");
        svc.removeParcel("O1", "T2");
        svc.onCarrierEvent("O1", "T1", "DL");
        assertEquals(OrderStatus.DELIVERED, svc.status("O1"));
    }

    @Test
    public void allParcelsCancelledIsNotDelivered() {
        svc.addParcel("O1", "T1");
        svc.removeParcel("O1", "T1");
        assertEquals(OrderStatus.AWAITING_SHIPMENT, svc.status("O1"));
        DeliveryPolicy policy = new DeliveryPolicy();
        Order bare = new Order("O2", "C1", List.of(new OrderLine("A", 1, 1)));
        assertFalse(policy.isComplete(bare));
        bare.addParcel("X").moveTo(com.acme.orders.model.ParcelState.CANCELLED);
        assertFalse(policy.isComplete(bare));
    }

    @Test
    public void unpaidAndCancelledOrdersKeepTheirStatus() {
        svc.place("O3", "C2", List.of(new OrderLine("A", 1, 1_00)));
        assertEquals(OrderStatus.PAYMENT_PENDING, svc.status("O3"));
        svc.cancel("O3");
        assertEquals(OrderStatus.CANCELLED, svc.status("O3"));
    }

    @Test
    public void policyAnswersDirectly() {
        DeliveryPolicy policy = new DeliveryPolicy();
        Order o = new Order("O4", "C1", List.of(new OrderLine("A", 1, 1)));
        o.addParcel("P1").moveTo(com.acme.orders.model.ParcelState.DELIVERED);
        o.addParcel("P2").moveTo(com.acme.orders.model.ParcelState.IN_TRANSIT);
        assertFalse(policy.isComplete(o));
        assertTrue(policy.anyDelivered(o));
        o.parcel("P2").get().moveTo(com.acme.orders.model.ParcelState.DELIVERED);
        assertTrue(policy.isComplete(o));
    }
}
