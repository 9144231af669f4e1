package nabprobe;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The probe's protocol: one JSON request per line on stdin, one JSON line of observations
 * back on the real stdout, `{"seq": N, "value": ...}` or `{"seq": N, "error": {"class",
 * "message"}}`. The code under test gets the process's stderr as System.out and an empty
 * System.in, so nothing it prints or reads is taken for the protocol. The probe decides
 * nothing: it reports what the code returned or threw.
 */
final class Loop {
    interface Handler {
        Object handle(Map<String, Object> request) throws Throwable;
    }

    private Loop() {}

    static void serve(Handler handler) throws Exception {
        PrintStream proto = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.setOut(System.err);
        System.setIn(new ByteArrayInputStream(new byte[0]));
        String line;
        while ((line = in.readLine()) != null) {
            Map<String, Object> reply = new LinkedHashMap<>();
            Object seq = null;
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> req = (Map<String, Object>) Json.parse(line);
                seq = req.get("seq");
                reply.put("seq", seq);
                reply.put("value", handler.handle(req));
            } catch (Throwable t) {
                reply.clear();
                reply.put("seq", seq);
                reply.put("error", thrown(t));
            }
            String out;
            try {
                out = Json.write(reply);
            } catch (Throwable t) {
                reply.clear();
                reply.put("seq", seq);
                reply.put("error", thrown(t));
                out = Json.write(reply);
            }
            proto.println(out);
            proto.flush();
        }
    }

    /** What a throwable says about itself, as an observation. */
    static Map<String, Object> thrown(Throwable t) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("class", t.getClass().getName());
        String msg;
        try {
            msg = t.getMessage();
        } catch (Throwable u) {
            msg = "<getMessage threw " + u.getClass().getName() + ">";
        }
        e.put("message", msg);
        return e;
    }

    static int integer(Object o) {
        long v = (Long) o;
        if (v != (int) v) {
            throw new IllegalArgumentException("not an int: " + v);
        }
        return (int) v;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return (List<Object>) o;
    }
}
