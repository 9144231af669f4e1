package dev.logship.ship;

import dev.logship.cli.Config;
import java.io.PrintStream;

/** Batches lines and posts them to the collector (network code elided in this extract). */
public final class Shipper {
    private final Config config;

    public Shipper(Config config) {
        this.config = config;
    }

    public boolean run(PrintStream err) {
        err.println("logship: shipping is not available in this build; use --dry-run");
        return config == null;
    }
}
