package intervals;

import java.util.ArrayList;
import java.util.List;

/** A room's bookings; a new booking is refused when it overlaps an existing one. */
public final class Booking {
    private final List<Interval> taken = new ArrayList<>();

    public boolean book(Interval slot) {
        if (slot.isEmpty()) {
            return false;
        }
        for (Interval t : taken) {
            if (t.overlaps(slot)) {
                return false;
            }
        }
        taken.add(slot);
        return true;
    }

    public List<Interval> schedule() {
        return IntervalSet.merge(taken);
    }
}
