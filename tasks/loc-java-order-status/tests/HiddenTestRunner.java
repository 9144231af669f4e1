import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/** Runs JUnit 4 classes and writes a JUnit XML report; exits non-zero unless every test passed. */
public final class HiddenTestRunner {
    private static final class Case {
        final String cls, name;
        long startNanos, nanos;
        Failure failure;
        Case(String cls, String name) { this.cls = cls; this.name = name; }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: HiddenTestRunner <junit.xml> <TestClass>...");
            System.exit(2);
        }
        List<Case> cases = new ArrayList<>();
        JUnitCore core = new JUnitCore();
        core.addListener(new RunListener() {
            Case current;
            @Override public void testStarted(Description d) {
                current = new Case(d.getClassName(), d.getMethodName());
                current.startNanos = System.nanoTime();
                cases.add(current);
            }
            @Override public void testFinished(Description d) { current.nanos = System.nanoTime() - current.startNanos; }
            @Override public void testFailure(Failure f) {
                Case c = current;
                if (c == null || !f.getDescription().getDisplayName().equals(c.name + "(" + c.cls + ")")) {
                    c = new Case(f.getDescription().getClassName(), String.valueOf(f.getDescription().getMethodName()));
                    cases.add(c);
                }
                c.failure = f;
            }
        });
        Class<?>[] classes = new Class<?>[args.length - 1];
        for (int i = 1; i < args.length; i++) classes[i - 1] = Class.forName(args[i]);
        Result result = core.run(Request.classes(classes));
        int failures = 0;
        for (Case c : cases) if (c.failure != null) failures++;
        try (Writer w = new OutputStreamWriter(new FileOutputStream(args[0]), StandardCharsets.UTF_8)) {
            w.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            w.write("<testsuite name=\"hidden\" tests=\"" + cases.size() + "\" failures=\"" + failures
                    + "\" errors=\"0\" skipped=\"0\" time=\"" + result.getRunTime() / 1000.0 + "\">\n");
            for (Case c : cases) {
                w.write("  <testcase classname=\"" + esc(c.cls) + "\" name=\"" + esc(c.name) + "\" time=\"" + c.nanos / 1e9 + "\"");
                if (c.failure == null) {
                    w.write("/>\n");
                } else {
                    w.write(">\n    <failure message=\"" + esc(String.valueOf(c.failure.getMessage())) + "\">"
                            + esc(c.failure.getTrace()) + "</failure>\n  </testcase>\n");
                }
            }
            w.write("</testsuite>\n");
        }
        for (Case c : cases) {
            if (c.failure != null) System.out.println("FAIL " + c.cls + "." + c.name + ": " + c.failure.getMessage());
        }
        System.out.println(cases.size() + " tests, " + failures + " failed");
        System.exit(failures == 0 && result.wasSuccessful() ? 0 : 1);
    }

    private static String esc(String s) {
        StringBuilder b = new StringBuilder();
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '<': b.append("&lt;"); break;
                case '>': b.append("&gt;"); break;
                case '&': b.append("&amp;"); break;
                case '"': b.append("&quot;"); break;
                default:
                    if (ch < 0x20 && ch != '\n' && ch != '\t') b.append('?'); else b.append(ch);
            }
        }
        return b.toString();
    }
}
