package nabprobe;

import intervals.Booking;
import intervals.Interval;
import intervals.IntervalSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Calls the interval library for the runner and reports what it returned (see Loop). An
 * interval is sent and reported as [start, end], read back through start() and end().
 *
 *   {"op": "contains", "iv": [s, e], "x": x}              -> boolean
 *   {"op": "overlaps", "a": [s, e], "b": [s, e]}          -> boolean
 *   {"op": "merge", "input": [[s, e], ...]}               -> {"result": [...], "input_after": [...]}
 *   {"op": "coverage", "input": [[s, e], ...]}            -> number
 *   {"op": "booking", "book": [[s, e], ...]}              -> {"booked": [boolean, ...], "schedule": [...]}
 *   {"op": "batch", "calls": [request, ...]}              -> [{"value": ...} | {"error": ...}, ...]
 */
public final class IntervalProbe {
    private IntervalProbe() {}

    public static void main(String[] args) throws Exception {
        Loop.serve(IntervalProbe::handle);
    }

    static Object handle(Map<String, Object> req) throws Throwable {
        String op = (String) req.get("op");
        switch (op) {
            case "batch": {
                List<Object> out = new ArrayList<>();
                for (Object call : Loop.list(req.get("calls"))) {
                    Map<String, Object> r = new LinkedHashMap<>();
                    try {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> c = (Map<String, Object>) call;
                        if ("batch".equals(c.get("op"))) {
                            throw new IllegalArgumentException("nested batch");
                        }
                        r.put("value", handle(c));
                    } catch (Throwable t) {
                        r.put("error", Loop.thrown(t));
                    }
                    out.add(r);
                }
                return out;
            }
            case "contains":
                return iv(req.get("iv")).contains(Loop.integer(req.get("x")));
            case "overlaps":
                return iv(req.get("a")).overlaps(iv(req.get("b")));
            case "merge": {
                List<Interval> input = ivs(req.get("input"));
                List<Interval> result = IntervalSet.merge(input);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("result", show(result));
                m.put("input_after", show(input));
                return m;
            }
            case "coverage":
                return IntervalSet.coverage(ivs(req.get("input")));
            case "booking": {
                Booking b = new Booking();
                List<Object> booked = new ArrayList<>();
                for (Interval slot : ivs(req.get("book"))) {
                    booked.add(b.book(slot));
                }
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("booked", booked);
                m.put("schedule", show(b.schedule()));
                return m;
            }
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }

    private static Interval iv(Object o) {
        List<Object> p = Loop.list(o);
        return new Interval(Loop.integer(p.get(0)), Loop.integer(p.get(1)));
    }

    /** A mutable list of new intervals, as a caller would pass one. */
    private static List<Interval> ivs(Object o) {
        List<Interval> out = new ArrayList<>();
        for (Object p : Loop.list(o)) {
            out.add(iv(p));
        }
        return out;
    }

    private static Object show(List<Interval> l) {
        if (l == null) {
            return null;
        }
        List<Object> out = new ArrayList<>();
        for (Interval i : l) {
            out.add(i == null ? null : List.of((long) i.start(), (long) i.end()));
        }
        return out;
    }
}
