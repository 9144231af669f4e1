import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.Test;

import com.acme.stock.BinLocation;
import com.acme.stock.CsvImport;
import com.acme.stock.ReorderPolicy;
import com.acme.stock.Sku;
import com.acme.stock.StockLedger;
import com.acme.stock.StockMovement;

public class SkuIdentityCheck {
    private static final Instant T0 = Instant.parse("2024-06-03T08:00:00Z");
    private static final BinLocation BIN = new BinLocation("HAM", "A", 1, 0);

    @Test
    public void equalsIsAnEquivalenceOverSpellings() {
        Object a = Sku.of("AB-1234"), b = Sku.of("ab 1234"), c = Sku.of("AB1234"), d = Sku.of(" Ab-12 34 ");
        Object[] all = {a, b, c, d};
        for (Object x : all) {
            assertTrue(x.equals(x));
            for (Object y : all) {
                assertTrue(x + " vs " + y, x.equals(y));
                assertEquals(x + " vs " + y, x.hashCode(), y.hashCode());
            }
        }
        assertFalse(a.equals(Sku.of("AB-1235")));
        assertFalse(Sku.of("AB-1235").equals(a));
        assertFalse(a.equals(Sku.of("AB-12345")));
    }

    @Test
    public void equalsRejectsNullAndOtherTypes() {
        Object a = Sku.of("AB-1234");
        assertFalse(a.equals(null));
        assertFalse(a.equals("AB1234"));
        assertFalse(a.equals(new StringBuilder("AB1234")));
    }

    @Test
    public void hashSetDeduplicatesSpellings() {
        Set<Sku> set = new HashSet<>(List.of(Sku.of("AB-1234"), Sku.of("XY-77")));
        assertFalse(set.add(Sku.of("ab 1234")));
        assertFalse(set.add(Sku.of("xy77")));
        assertTrue(set.contains(Sku.of("AB1234")));
        assertTrue(set.remove(Sku.of("x-y-7-7")));
        assertEquals(1, set.size());
    }

    @Test
    public void hashMapFindsAnySpelling() {
        Map<Sku, String> names = new HashMap<>();
        names.put(Sku.of("AB-1234"), "bolt");
        names.put(Sku.of("ab 1234"), "bolt M8");
        assertEquals(1, names.size());
        assertEquals("bolt M8", names.get(Sku.of("AB1234")));
    }

    @Test
    public void compareToAgreesWithEquals() {
        String[] codes = {"AB-1234", "ab1234", "AB-1235", "XY-77", "xy 77", "A-B", "ab"};
        for (String x : codes) {
            for (String y : codes) {
                Sku a = Sku.of(x), b = Sku.of(y);
                assertEquals(x + " vs " + y, a.compareTo(b) == 0, a.equals(b));
            }
        }
    }

    @Test
    public void hashCodesStaySpread() {
        Set<Integer> hashes = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            hashes.add(Sku.of("QX-" + i).hashCode());
        }
        assertTrue("only " + hashes.size() + " distinct hash codes for 2000 SKUs", hashes.size() >= 1900);
    }

    @Test
    public void displayKeepsTheTypedCode() {
        Sku s = Sku.of("  ab-1234 ");
        assertEquals("ab-1234", s.toString());
        assertEquals("AB1234", s.canonical());
        assertEquals("AB", s.vendor());
    }

    @Test
    public void ledgerMergesSpellings() {
        String receipts = String.join("\n",
                "AB-1234,10,A-01-0,GR-881",
                "ab1234,5,A-01-1,GR-882",
                "XY-77,3,B-04-2,GR-882",
                "AB 1234,-4,A-01-0,PICK-19");
        StockLedger ledger = new StockLedger();
        for (StockMovement m : CsvImport.parse("HAM", receipts, T0)) ledger.apply(m);
        assertEquals(11, ledger.quantity(Sku.of("ab-1234")));
        assertEquals(2, ledger.skuCount());
        assertEquals(Integer.valueOf(6), ledger.bins(Sku.of("AB1234")).get(new BinLocation("HAM", "A", 1, 0)));
        assertEquals(2, ledger.snapshot().size());
    }

    @Test
    public void blockingAppliesToEverySpelling() {
        StockLedger ledger = new StockLedger();
        ledger.apply(new StockMovement(Sku.of("AB-1234"), BIN, 5, "GR", T0));
        ledger.block(Sku.of("ab1234"));
        assertTrue(ledger.isBlocked(Sku.of("AB 1234")));
        try {
            ledger.apply(new StockMovement(Sku.of("AB-1234"), BIN, -1, "PICK", T0));
            throw new AssertionError("a blocked SKU was picked");
        } catch (IllegalStateException expected) {
            // blocked
        }
        ledger.unblock(Sku.of("Ab-1234"));
        ledger.apply(new StockMovement(Sku.of("AB-1234"), BIN, -1, "PICK", T0));
        assertEquals(4, ledger.quantity(Sku.of("ab1234")));
    }

    @Test
    public void reorderShortfallsUseTheSameSku() {
        StockLedger ledger = new StockLedger();
        ledger.apply(new StockMovement(Sku.of("ab-1234"), BIN, 3, "GR", T0));
        ReorderPolicy policy = new ReorderPolicy().require(Sku.of("AB1234"), 10).require(Sku.of("ab 1234"), 8);
        Map<Sku, Integer> short_ = policy.shortfalls(ledger);
        assertEquals(1, short_.size());
        assertEquals(Integer.valueOf(5), short_.get(Sku.of("AB-1234")));
        assertNotEquals(Sku.of("AB-1234"), Sku.of("AB-1243"));
    }
}
