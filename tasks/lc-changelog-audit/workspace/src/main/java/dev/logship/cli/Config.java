package dev.logship.cli;

import java.util.Map;
import java.util.TreeMap;

/** The effective settings of one logship run, after option parsing. */
public final class Config {
    String input = "-";
    String output = null;
    String format = "text";
    String compress = "none";
    int batchSize = 500;
    int flushIntervalMs = 1000;
    int retries = 3;
    String tlsCa = null;
    boolean verifyTls = true;
    boolean verbose = false;
    boolean quiet = false;
    boolean dryRun = false;
    final Map<String, String> labels = new TreeMap<>();

    /** key=value lines, sorted, as printed by --dry-run. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("batch_size=").append(batchSize).append('\n');
        sb.append("compress=").append(compress).append('\n');
        sb.append("flush_interval_ms=").append(flushIntervalMs).append('\n');
        sb.append("format=").append(format).append('\n');
        sb.append("input=").append(input).append('\n');
        labels.forEach((k, v) -> sb.append("label.").append(k).append('=').append(v).append('\n'));
        sb.append("output=").append(output == null ? "" : output).append('\n');
        sb.append("quiet=").append(quiet).append('\n');
        sb.append("retries=").append(retries).append('\n');
        sb.append("tls_ca=").append(tlsCa == null ? "" : tlsCa).append('\n');
        sb.append("verbose=").append(verbose).append('\n');
        sb.append("verify_tls=").append(verifyTls).append('\n');
        return sb.toString();
    }
}
