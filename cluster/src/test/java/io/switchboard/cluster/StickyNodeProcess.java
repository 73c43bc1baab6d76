package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link StickyNode} in a JVM of its own, as the process tests and the benchmark drive it: commands
 * to its stdin, answers from its stdout, its log in {@code target/process-cluster/NAME.log}.
 */
final class StickyNodeProcess {

    private final String name;
    private final Process process;
    private final PrintStream in;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private int port;

    private StickyNodeProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("= ")) {
                        answers.add(line.substring(2));
                    }
                }
            } catch (IOException e) {
                // the process died: asks time out
            }
        }, "node-" + name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts a node of cluster {@code clusterName} that joins through {@code seeds} (none: it founds it). */
    static StickyNodeProcess start(String name, String clusterName, List<String> jvmOptions,
                                   StickyNodeProcess... seeds) throws IOException {
        List<String> seedAddresses = new ArrayList<>();
        for (StickyNodeProcess seed : seeds) {
            seedAddresses.add("127.0.0.1:" + seed.awaitReady());
        }
        return start(name, clusterName, jvmOptions, List.of(), seedAddresses);
    }

    /**
     * The members' collector: SerialGC (small, predictable footprints for the tests and the heap
     * figures), or what the benchmark's {@code MEMBER_GC} names ({@code -XX:+UseG1GC}) through the
     * system property {@code switchboard.bench.memberGc}.
     */
    static String collector() {
        return System.getProperty("switchboard.bench.memberGc", "-XX:+UseSerialGC");
    }

    /**
     * The general form: the JVM started under {@code prefix} (e.g. {@code ip netns exec NS}), joining
     * through the members at {@code seeds} ({@code address:port}).
     */
    static StickyNodeProcess start(String name, String clusterName, List<String> jvmOptions, List<String> prefix,
                                   List<String> seeds) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), collector()));
        command.addAll(jvmOptions);
        command.addAll(ClusterMember.JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")), StickyNode.class.getName(), clusterName));
        command.addAll(seeds);
        File log = new File("target/process-cluster/" + name + ".log");
        log.getParentFile().mkdirs();
        return new StickyNodeProcess(name, new ProcessBuilder(command).redirectError(log).start());
    }

    String name() {
        return name;
    }

    /** The node's cluster port, once it has joined. */
    int awaitReady() {
        if (port == 0) {
            String ready = answer();
            assertThat(ready).as("node %s", name).startsWith("ready ");
            port = Integer.parseInt(ready.substring("ready ".length()));
        }
        return port;
    }

    void send(String command) {
        in.println(command);
    }

    String answer() {
        return answer(60);
    }

    /** The next answer, waiting up to {@code seconds} (the benchmark's fills take minutes). */
    String answer(long seconds) {
        try {
            String answer = answers.poll(seconds, TimeUnit.SECONDS);
            assertThat(answer).as("answer from node %s (see target/process-cluster/%s.log)", name, name)
                    .isNotNull();
            return answer;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String ask(String command) {
        send(command);
        return answer();
    }

    /** SIGKILL, and wait for the process to be gone. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
