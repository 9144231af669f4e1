import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import intervals.Booking;
import intervals.Interval;
import intervals.IntervalSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.Test;

public class IntervalBoundaryTest {
    private static Interval iv(int s, int e) {
        return new Interval(s, e);
    }

    @Test
    public void containsIsHalfOpen() {
        Interval i = iv(1, 3);
        assertTrue(i.contains(1));
        assertTrue(i.contains(2));
        assertFalse(i.contains(3));
        assertFalse(i.contains(0));
    }

    @Test
    public void emptyIntervalContainsNothing() {
        assertFalse(iv(4, 4).contains(4));
    }

    @Test
    public void touchingIntervalsDoNotOverlap() {
        assertFalse(iv(1, 3).overlaps(iv(3, 5)));
        assertFalse(iv(3, 5).overlaps(iv(1, 3)));
    }

    @Test
    public void sharedPointOverlaps() {
        assertTrue(iv(1, 4).overlaps(iv(3, 5)));
        assertTrue(iv(1, 10).overlaps(iv(3, 5)));
        assertTrue(iv(2, 3).overlaps(iv(2, 3)));
    }

    @Test
    public void emptyIntervalOverlapsNothing() {
        assertFalse(iv(3, 3).overlaps(iv(1, 5)));
        assertFalse(iv(1, 5).overlaps(iv(3, 3)));
        assertFalse(iv(3, 3).overlaps(iv(3, 3)));
    }

    @Test
    public void touchingIntervalsMerge() {
        assertEquals(Arrays.asList(iv(1, 5)), IntervalSet.merge(Arrays.asList(iv(3, 5), iv(1, 3))));
    }

    @Test
    public void chainOfTouchingIntervalsMergesIntoOne() {
        assertEquals(Arrays.asList(iv(0, 4)), IntervalSet.merge(Arrays.asList(iv(2, 3), iv(0, 1), iv(3, 4), iv(1, 2))));
    }

    @Test
    public void gapsAreKept() {
        assertEquals(Arrays.asList(iv(1, 2), iv(3, 4)), IntervalSet.merge(Arrays.asList(iv(3, 4), iv(1, 2))));
    }

    @Test
    public void emptyIntervalsAreDropped() {
        assertEquals(Arrays.asList(iv(1, 2)), IntervalSet.merge(Arrays.asList(iv(5, 5), iv(1, 2), iv(0, 0))));
        assertEquals(Collections.emptyList(), IntervalSet.merge(Arrays.asList(iv(7, 7))));
    }

    @Test
    public void emptyIntervalDoesNotBridgeAGap() {
        assertEquals(Arrays.asList(iv(1, 2), iv(3, 4)), IntervalSet.merge(Arrays.asList(iv(1, 2), iv(2, 2), iv(3, 4))));
    }

    @Test
    public void nestedAndOverlappingMerge() {
        assertEquals(Arrays.asList(iv(0, 10)), IntervalSet.merge(Arrays.asList(iv(0, 10), iv(2, 3), iv(9, 10))));
    }

    @Test
    public void mergeDoesNotModifyItsInput() {
        List<Interval> in = new ArrayList<>(Arrays.asList(iv(3, 5), iv(1, 3)));
        IntervalSet.merge(in);
        assertEquals(Arrays.asList(iv(3, 5), iv(1, 3)), in);
    }

    @Test
    public void coverageCountsTouchingOnce() {
        assertEquals(4, IntervalSet.coverage(Arrays.asList(iv(1, 3), iv(3, 5), iv(4, 4))));
    }

    @Test
    public void backToBackBookingsAreAllowed() {
        Booking b = new Booking();
        assertTrue(b.book(iv(9, 10)));
        assertTrue(b.book(iv(10, 11)));
        assertFalse(b.book(iv(10, 12)));
        assertEquals(Arrays.asList(iv(9, 11)), b.schedule());
    }
}
