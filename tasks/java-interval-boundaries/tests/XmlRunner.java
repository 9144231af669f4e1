import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/** Runs JUnit 4 classes and writes a JUnit XML report: XmlRunner <out.xml> <class>... */
public final class XmlRunner {
    private static final class Case {
        String cls;
        String name;
        String failure;
    }

    public static void main(String[] args) throws Exception {
        List<Case> cases = new ArrayList<>();
        JUnitCore core = new JUnitCore();
        core.addListener(new RunListener() {
            @Override
            public void testStarted(Description d) {
                Case c = new Case();
                c.cls = d.getClassName();
                c.name = d.getMethodName();
                cases.add(c);
            }

            @Override
            public void testFailure(Failure f) {
                if (!cases.isEmpty()) {
                    cases.get(cases.size() - 1).failure = f.getMessage() == null ? f.toString() : f.getMessage();
                }
                System.out.println("FAIL " + f.getDescription().getDisplayName() + ": " + f.getMessage());
            }
        });
        Class<?>[] classes = new Class<?>[args.length - 1];
        for (int i = 1; i < args.length; i++) {
            classes[i - 1] = Class.forName(args[i]);
        }
        Result r = core.run(classes);
        try (Writer w = new OutputStreamWriter(new FileOutputStream(args[0]), StandardCharsets.UTF_8)) {
            w.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite tests=\"" + cases.size()
                    + "\" failures=\"" + r.getFailureCount() + "\">\n");
            for (Case c : cases) {
                w.write("  <testcase classname=\"" + esc(c.cls) + "\" name=\"" + esc(c.name) + "\"");
                if (c.failure == null) {
                    w.write("/>\n");
                } else {
                    w.write("><failure message=\"" + esc(c.failure) + "\"/></testcase>\n");
                }
            }
            w.write("</testsuite>\n");
        }
        System.out.println("tests run: " + r.getRunCount() + ", failures: " + r.getFailureCount());
        System.exit(r.wasSuccessful() ? 0 : 1);
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
