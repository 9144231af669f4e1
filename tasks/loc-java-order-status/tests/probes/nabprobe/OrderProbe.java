package nabprobe;

import com.acme.orders.fulfilment.DeliveryPolicy;
import com.acme.orders.model.Order;
import com.acme.orders.model.OrderLine;
import com.acme.orders.model.OrderStatus;
import com.acme.orders.model.Parcel;
import com.acme.orders.model.ParcelState;
import com.acme.orders.payment.FakeGateway;
import com.acme.orders.repo.OrderRepository;
import com.acme.orders.service.OrderService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays scenarios against the order code for the runner and reports what each step returned
 * or threw (see Loop); it decides nothing. A request is
 * {"op": "scenario", "steps": [[action, args...], ...]}; the reply is one observation per
 * step, {"value": ...} or {"error": {...}}, and a step after a failed one still runs.
 *
 *   ["service", limitCents]                      a new OrderService (repository, FakeGateway)
 *   ["place", orderId, customerId, lines]        lines: [[sku, quantity, unitCents], ...]
 *   ["pay", orderId]                             -> boolean
 *   ["addParcel", orderId, trackingId]
 *   ["removeParcel", orderId, trackingId]
 *   ["event", orderId, trackingId, code]         onCarrierEvent -> boolean
 *   ["cancel", orderId]
 *   ["status", orderId]                          -> the OrderStatus's name
 *   ["order", name, orderId, customerId, lines]  a bare Order, kept under name
 *   ["parcel", name, trackingId, state|null]     order.addParcel(t), then moveTo(state)
 *   ["move", name, trackingId, state]            order.parcel(t).get().moveTo(state)
 *   ["isComplete" | "anyDelivered" | "anyDispatched", name]   a new DeliveryPolicy's answer
 */
public final class OrderProbe {
    private OrderProbe() {}

    public static void main(String[] args) throws Exception {
        Loop.serve(OrderProbe::handle);
    }

    static Object handle(Map<String, Object> req) throws Throwable {
        String op = (String) req.get("op");
        if (!"scenario".equals(op)) {
            throw new IllegalArgumentException("unknown op " + op);
        }
        Scenario s = new Scenario();
        List<Object> out = new ArrayList<>();
        for (Object step : Loop.list(req.get("steps"))) {
            Map<String, Object> r = new LinkedHashMap<>();
            try {
                r.put("value", s.step(Loop.list(step)));
            } catch (Throwable t) {
                r.put("error", Loop.thrown(t));
            }
            out.add(r);
        }
        return out;
    }

    private static final class Scenario {
        OrderService svc;
        final Map<String, Order> orders = new HashMap<>();

        Object step(List<Object> a) {
            String action = (String) a.get(0);
            switch (action) {
                case "service":
                    svc = new OrderService(new OrderRepository(), new FakeGateway((Long) a.get(1)));
                    return null;
                case "place":
                    return id(svc.place(str(a, 1), str(a, 2), lines(a.get(3))));
                case "pay":
                    return svc.pay(str(a, 1));
                case "addParcel":
                    svc.addParcel(str(a, 1), str(a, 2));
                    return null;
                case "removeParcel":
                    svc.removeParcel(str(a, 1), str(a, 2));
                    return null;
                case "event":
                    return svc.onCarrierEvent(str(a, 1), str(a, 2), str(a, 3));
                case "cancel":
                    svc.cancel(str(a, 1));
                    return null;
                case "status":
                    return name(svc.status(str(a, 1)));
                case "order":
                    orders.put(str(a, 1), new Order(str(a, 2), str(a, 3), lines(a.get(4))));
                    return null;
                case "parcel": {
                    Parcel p = order(a).addParcel(str(a, 2));
                    if (a.get(3) != null) {
                        p.moveTo(ParcelState.valueOf(str(a, 3)));
                    }
                    return null;
                }
                case "move":
                    order(a).parcel(str(a, 2)).get().moveTo(ParcelState.valueOf(str(a, 3)));
                    return null;
                case "isComplete":
                    return new DeliveryPolicy().isComplete(order(a));
                case "anyDelivered":
                    return new DeliveryPolicy().anyDelivered(order(a));
                case "anyDispatched":
                    return new DeliveryPolicy().anyDispatched(order(a));
                default:
                    throw new IllegalArgumentException("unknown action " + action);
            }
        }

        private Order order(List<Object> a) {
            Order o = orders.get(str(a, 1));
            if (o == null) {
                throw new IllegalArgumentException("no bare order " + a.get(1));
            }
            return o;
        }
    }

    private static String str(List<Object> a, int i) {
        return (String) a.get(i);
    }

    private static String id(Order o) {
        return o == null ? null : o.id();
    }

    private static String name(OrderStatus s) {
        return s == null ? null : s.name();
    }

    private static List<OrderLine> lines(Object o) {
        List<OrderLine> out = new ArrayList<>();
        for (Object l : Loop.list(o)) {
            List<Object> f = Loop.list(l);
            out.add(new OrderLine((String) f.get(0), Loop.integer(f.get(1)), (Long) f.get(2)));
        }
        return out;
    }
}
