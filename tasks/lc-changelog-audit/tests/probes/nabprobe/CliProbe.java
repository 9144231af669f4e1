import dev.logship.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs Main.run once per case (cases separated by "::") in one JVM; prints
 * "CASE i exit=N", then "OUT ..." / "ERR ..." lines, then "END". */
public final class Probe {
    public static void main(String[] args) {
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
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Main.run(cases.get(i).toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            System.out.println("CASE " + i + " exit=" + code);
            for (String line : out.toString(StandardCharsets.UTF_8).split("\n", -1)) {
                if (!line.isEmpty()) {
                    System.out.println("OUT " + line);
                }
            }
            for (String line : err.toString(StandardCharsets.UTF_8).split("\n", -1)) {
                if (!line.isEmpty()) {
                    System.out.println("ERR " + line);
                }
            }
            System.out.println("END");
        }
    }
}
