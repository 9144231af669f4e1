package dev.logship.cli;

import dev.logship.ship.Shipper;
import java.io.PrintStream;

/** logship: ships log lines from a file or stdin to an HTTP collector. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs logship; returns the process exit status (0 ok, 1 shipping failed, 2 usage). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && args[0].equals("--version")) {
            out.println("logship " + Version.VERSION);
            return 0;
        }
        Config config;
        try {
            config = Options.parse(args, err);
        } catch (UsageException e) {
            err.println("logship: " + e.getMessage());
            return 2;
        }
        if (config.dryRun) {
            out.print(config.describe());
            return 0;
        }
        return new Shipper(config).run(err) ? 0 : 1;
    }
}
