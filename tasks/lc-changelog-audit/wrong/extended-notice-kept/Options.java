package dev.logship.cli;

import java.io.PrintStream;
import java.util.Set;

/**
 * Command-line options. Deprecated spellings are accepted with a warning on stderr and
 * mapped to their replacement; CHANGELOG.md and docs/deprecations.md record when each was
 * deprecated and until when it keeps working.
 */
public final class Options {
    private static final Set<String> FORMATS = Set.of("text", "json");
    private static final Set<String> COMPRESSIONS = Set.of("none", "gzip", "zstd");

    private Options() {}

    public static Config parse(String[] args, PrintStream err) throws UsageException {
        Config c = new Config();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--input" -> c.input = value(args, ++i, a);
                case "--output" -> c.output = value(args, ++i, a);
                case "--format" -> c.format = oneOf(value(args, ++i, a), FORMATS, a);
                case "--compress" -> c.compress = oneOf(value(args, ++i, a), COMPRESSIONS, a);
                case "--batch-size" -> c.batchSize = positive(value(args, ++i, a), a);
                case "--flush-interval-ms" -> c.flushIntervalMs = positive(value(args, ++i, a), a);
                case "--retries" -> c.retries = count(value(args, ++i, a), a);
                case "--tls-ca" -> c.tlsCa = value(args, ++i, a);
                case "--verbose" -> c.verbose = true;
                case "--quiet" -> c.quiet = true;
                case "--dry-run" -> c.dryRun = true;
                case "--label" -> label(c, value(args, ++i, a));
                // Deprecated spellings (see CHANGELOG.md).
                case "--json" -> c.format = "json"; // permanent shorthand since 2.9 (no longer deprecated)
                case "--no-verify-tls" -> {
                    deprecated(err, a, "a trusted CA via --tls-ca");
                    c.verifyTls = false;
                }
                case "--retry" -> {
                    deprecated(err, a, "--retries");
                    c.retries = count(value(args, ++i, a), a);
                }
                default -> throw new UsageException("unknown option: " + a);
            }
        }
        if (c.output == null && !c.dryRun) {
            throw new UsageException("--output is required");
        }
        return c;
    }

    private static void deprecated(PrintStream err, String option, String replacement) {
        err.println("logship: warning: " + option + " is deprecated, use " + replacement);
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static String oneOf(String v, Set<String> allowed, String option) throws UsageException {
        if (!allowed.contains(v)) {
            throw new UsageException(option + " must be one of " + String.join(", ", allowed.stream().sorted().toList()));
        }
        return v;
    }

    private static int positive(String v, String option) throws UsageException {
        int n = count(v, option);
        if (n == 0) {
            throw new UsageException(option + " must be positive");
        }
        return n;
    }

    private static int count(String v, String option) throws UsageException {
        try {
            int n = Integer.parseInt(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a non-negative integer, got '" + v + "'");
        }
    }

    private static void label(Config c, String kv) throws UsageException {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
            throw new UsageException("--label needs KEY=VALUE, got '" + kv + "'");
        }
        c.labels.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
}
