package io.switchboard.director.gtp;

import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One of the scapy GTPv2-C peers in {@code src/test/resources/scapy} (a responder or a requester),
 * run by Debian's python3 (the pyenv python on PATH has no scapy) and driven one command at a time:
 * a JSON object a line on its stdin, its result a line on its stdout. Its stderr goes to a file
 * that failures quote, so a peer's complaint is in the test report and not lost.
 */
final class ScapyPeer implements AutoCloseable {

    static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Path SCRIPTS = Path.of("src", "test", "resources", "scapy");
    /** Scapy's import alone takes a second or two on a loaded machine. */
    private static final Duration START = Duration.ofSeconds(60);
    /** A command waits at most for its request's retransmissions (T3 × (N3 + 1)) and the answer. */
    private static final Duration COMMAND = Duration.ofSeconds(30);

    /** TS 29.274 Table 6.1-1: the requests the peers send and answer. */
    static final int CREATE_SESSION_REQUEST = 32;
    private static final Set<Integer> REQUESTS = Set.of(CREATE_SESSION_REQUEST, 34, 36, 95, 97, 99);

    private final String name;
    private final Process process;
    private final Writer stdin;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final JsonObject ready;

    /** Whether the peers can run here: Debian's python3 with scapy's GTPv2 layers. */
    static boolean available() throws IOException, InterruptedException {
        if (!Files.isExecutable(PYTHON)) {
            return false;
        }
        Process probe = new ProcessBuilder(PYTHON.toString(), "-c", "import scapy.contrib.gtp_v2")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0;
    }

    /**
     * Starts {@code script} with {@code arguments} and waits for its "ready" line.
     *
     * @param logs where its stderr is written ({@code <name>.stderr})
     */
    ScapyPeer(String name, String script, Path logs, String... arguments) throws IOException, InterruptedException {
        this.name = name;
        this.stderr = logs.resolve(name + ".stderr");
        List<String> command = new ArrayList<>(List.of(PYTHON.toString(), "-u", SCRIPTS.resolve(script).toString()));
        command.addAll(List.of(arguments));
        this.process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        this.stdin = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::read, "scapy-" + name);
        reader.setDaemon(true);
        reader.start();
        String first = lines.poll(START.toSeconds(), TimeUnit.SECONDS);
        if (first == null || !first.startsWith("{")) {
            close();
            throw new IOException(name + " did not start: " + (first == null ? "no ready line" : first) + stderrText());
        }
        this.ready = new JsonObject(first);
    }

    private void read() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process ended: call() reports the missing answer with the peer's stderr
        }
        lines.add("EOF");
    }

    JsonObject ready() {
        return ready;
    }

    /** Sends one command and returns its result; a peer that reports an error fails the call. */
    JsonObject call(JsonObject command) throws IOException, InterruptedException {
        stdin.write(command.encode() + "\n");
        stdin.flush();
        String line = lines.poll(COMMAND.toSeconds(), TimeUnit.SECONDS);
        if (line == null || !line.startsWith("{")) {
            throw new IOException(name + ": no result for " + command.encode() + stderrText());
        }
        JsonObject result = new JsonObject(line);
        if (result.containsKey("error")) {
            throw new IOException(name + " refused " + command.encode() + ": " + result.getString("error"));
        }
        return result;
    }

    JsonObject call(String cmd, Object... keysAndValues) throws IOException, InterruptedException {
        JsonObject command = new JsonObject().put("cmd", cmd);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            command.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return call(command);
    }

    /** Every datagram the peer received, decoded by scapy, in order. */
    List<JsonObject> received() throws IOException, InterruptedException {
        JsonArray all = call("log").getJsonArray("received");
        List<JsonObject> list = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            list.add(all.getJsonObject(i));
        }
        return list;
    }

    /** The messages of {@code type} the peer received. */
    List<JsonObject> received(int type) throws IOException, InterruptedException {
        return received().stream().filter(m -> m.getInteger("type", -1) == type).toList();
    }

    /** The Create Session Requests the peer received for {@code imsi}. */
    List<JsonObject> createsFor(String imsi) throws IOException, InterruptedException {
        return received(CREATE_SESSION_REQUEST).stream().filter(m -> m.getJsonArray("ies").stream()
                .map(JsonObject.class::cast).anyMatch(ie -> imsi.equals(ie.getString("imsi")))).toList();
    }

    /** Exactly one answer under {@code sequence} reaches the peer, and no second one follows. */
    void awaitOneAnswer(int sequence) {
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> received().stream()
                .filter(m -> m.getInteger("seq", -1) == sequence && !REQUESTS.contains(m.getInteger("type", -1)))
                .count() == 1);
    }

    /** The message-level F-TEID (IE 87) of that instance in a message the peer decoded, or null. */
    static JsonObject fteid(JsonObject message, int instance) {
        return ies(message).stream().filter(ie -> ie.getInteger("type", -1) == 87
                && ie.getInteger("instance") == instance).findFirst().orElse(null);
    }

    /** The Cause (IE 2) of a message the peer decoded, or null. */
    static Integer cause(JsonObject message) {
        return ies(message).stream().filter(ie -> ie.getInteger("type", -1) == 2).findFirst()
                .map(ie -> ie.getInteger("cause")).orElse(null);
    }

    private static List<JsonObject> ies(JsonObject message) {
        return message.getJsonArray("ies").stream().map(JsonObject.class::cast).toList();
    }

    /** The sessions the peer holds (its own TEID, the peer's TEID and address, IMSI, bearers). */
    List<JsonObject> sessions() throws IOException, InterruptedException {
        JsonArray all = call("sessions").getJsonArray("sessions");
        List<JsonObject> list = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            list.add(all.getJsonObject(i));
        }
        return list;
    }

    private String stderrText() {
        try {
            return Files.exists(stderr) ? "\n" + name + " stderr:\n" + Files.readString(stderr) : "";
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (process.isAlive()) {
            try {
                stdin.write("{\"cmd\": \"quit\"}\n");
                stdin.flush();
            } catch (IOException e) {
                // already gone
            }
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
