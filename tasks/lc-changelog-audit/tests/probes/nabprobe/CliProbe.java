package nabprobe;

import dev.logship.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs Main.run once per case (cases separated by "::" in argv) in one JVM and prints, per
 * case, one JSON line of what it saw: {"case": i, "exit": N, "out": "...", "err": "..."}, or
 * {"case": i, "threw": {"class", "message"}} when run threw. It decides nothing. The lines go
 * to the real stdout; the code under test gets stderr as System.out and an empty System.in.
 */
public final class CliProbe {
    private CliProbe() {}

    public static void main(String[] args) {
        PrintStream proto = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        System.setIn(new ByteArrayInputStream(new byte[0]));
        List<List<String>> cases = new ArrayList<>();
        cases.add(new ArrayList<>());
        for (String a : args) {
            if (a.equals("::")) {
                cases.add(new ArrayList<>());
            } else {
                cases.get(cases.size() - 1).add(a);
            }
        }
        for (int i = 0; i < cases.size(); i++) {
            Map<String, Object> seen = new LinkedHashMap<>();
            seen.put("case", i);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            try {
                int code = Main.run(cases.get(i).toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                seen.put("exit", code);
                seen.put("out", out.toString(StandardCharsets.UTF_8));
                seen.put("err", err.toString(StandardCharsets.UTF_8));
            } catch (Throwable t) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("class", t.getClass().getName());
                e.put("message", String.valueOf(t.getMessage()));
                seen.put("threw", e);
            }
            proto.println(Json.write(seen));
            proto.flush();
        }
    }
}
