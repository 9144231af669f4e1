package org.textstats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** textstats [--version] [--min-length N] [--top N] [--format text|json] FILE */
public final class Cli {
    private Cli() {}

    public static void main(String[] args) throws IOException {
        int minLength = 1, top = 10;
        String format = "text", file = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--version" -> { System.out.println("textstats " + Version.VERSION); return; }
                case "--min-length" -> minLength = Integer.parseInt(args[++i]);
                case "--top" -> top = Integer.parseInt(args[++i]);
                case "--format" -> format = args[++i];
                default -> file = args[i];
            }
        }
        if (file == null) {
            System.err.println("usage: textstats [--version] [--min-length N] [--top N] [--format text|json] FILE");
            System.exit(2);
        }
        String text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        Map<String, Integer> counts = new WordCounter(new Tokenizer(minLength)).count(text);
        StringBuilder json = new StringBuilder("{");
        int shown = 0;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (shown++ == top) {
                break;
            }
            if (format.equals("json")) {
                json.append(shown > 1 ? ", " : "").append('"').append(e.getKey().replace("\"", "\\\"")).append("\": ").append(e.getValue());
            } else {
                System.out.printf("%7d %s%n", e.getValue(), e.getKey());
            }
        }
        if (format.equals("json")) {
            System.out.println(json.append('}'));
        }
    }
}
