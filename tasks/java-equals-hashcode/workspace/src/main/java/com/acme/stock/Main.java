package com.acme.stock;

import java.time.Instant;

/** Imports the sample receipts and prints stock on hand. */
public final class Main {
    public static void main(String[] args) {
        String receipts = String.join("\n",
                "# scanner 3, morning shift",
                "AB-1234,10,A-01-0,GR-881",
                "ab1234,5,A-01-1,GR-882",
                "XY-77,3,B-04-2,GR-882",
                "AB 1234,-4,A-01-0,PICK-19");
        StockLedger ledger = new StockLedger();
        for (StockMovement m : CsvImport.parse("HAM", receipts, Instant.parse("2024-06-03T08:00:00Z"))) {
            ledger.apply(m);
        }
        ledger.snapshot().forEach((sku, qty) -> System.out.println(sku.canonical() + " " + qty));
        System.out.println("distinct SKUs: " + ledger.skuCount());
    }
}
