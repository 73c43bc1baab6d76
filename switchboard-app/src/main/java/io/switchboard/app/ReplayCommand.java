package io.switchboard.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.director.config.bind.Durations;
import io.switchboard.pcap.CaptureException;
import io.switchboard.pcap.PcapWriter;
import io.switchboard.pcap.Replay;
import io.switchboard.pcap.Template;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard replay CAPTURE --to HOST:PORT}: sends a capture's requests to a live director
 * or any peer and reports what was answered (see {@link Replay}). With several {@code --to} and
 * {@code --retransmit N}, it is the client of a farm behind several directors: requests spread over
 * the targets, and one unanswered after {@code --timeout} goes again to the next. Exit 0 when every
 * request was answered in time, 1 when some were lost or late, 2 on bad input.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Send the requests of a capture to a director or peer; match answers; report loss and latency.")
final class ReplayCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "CAPTURE", description = "capture file (.pcap or .pcapng)")
    Path capture;

    @Option(names = "--to", required = true, split = ",", paramLabel = "HOST:PORT",
            description = "where to send the requests; repeatable (or a comma list): requests spread over them")
    List<String> to;

    @Option(names = "--retransmit", paramLabel = "N", defaultValue = "0",
            description = "send a request unanswered after --timeout again, to the next --to, up to N times"
                    + " (default ${DEFAULT-VALUE})")
    int retransmit;

    @Option(names = "--port", paramLabel = "PORT",
            description = "replay the datagrams sent to this port (default: the port of the capture's first signaling request)")
    int port;

    static final class Pace {
        @Option(names = "--rate", paramLabel = "N", description = "a fixed rate, requests per second")
        Double rate;

        @Option(names = "--speed", paramLabel = "X", description = "the capture's own timing, X times faster (default 1)")
        Double speed;
    }

    @ArgGroup(exclusive = true)
    Pace pace;

    @Option(names = "--timeout", paramLabel = "T", defaultValue = "1s",
            description = "an answer later than this is late; the run ends this long after the last request (default ${DEFAULT-VALUE})")
    String timeout;

    @Option(names = "--duration", paramLabel = "D",
            description = "load from a template: send the capture's requests over and over at --rate for this long")
    String duration;

    @Option(names = "--window", paramLabel = "N",
            description = "closed loop: at most N requests in flight (without --rate, as fast as answers allow)")
    int window;

    @Option(names = "--sockets", paramLabel = "N", defaultValue = "1",
            description = "send from N sockets, each with a thread of its own (default ${DEFAULT-VALUE})")
    int sockets;

    @Option(names = "--vary", paramLabel = "FIELD:K",
            description = "with --duration: rewrite FIELD (imsi, msid, calling-station-id, username, framed-ip,"
                    + " sequence) over K values; repeatable")
    List<String> vary = new ArrayList<>();

    @Option(names = "--secret", paramLabel = "S",
            description = "with --duration: sign RADIUS requests again with this shared secret")
    String secret;

    @Option(names = "--write", paramLabel = "FILE", description = "write what was sent and received to a pcap file")
    Path write;

    @Spec
    CommandSpec spec;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            List<InetSocketAddress> targets = new ArrayList<>();
            for (String t : to) {
                targets.add(target(t));
            }
            Duration wait = Durations.parse(timeout);
            if (wait.isNegative() || wait.isZero()) {
                throw new IllegalArgumentException("--timeout must be positive");
            }
            if (window < 0) {
                throw new IllegalArgumentException("--window must be positive");
            }
            boolean rated = pace != null && pace.rate != null;
            boolean closedLoop = window > 0 && pace == null;
            Replay.Pacing pacing = rated ? Replay.Pacing.fixedRate(pace.rate)
                    : closedLoop ? null : Replay.Pacing.capture(pace != null && pace.speed != null ? pace.speed : 1.0);
            Replay.Requests requests = Replay.read(capture, port);
            err.printf("replay: %d request(s) to port %d%s from %s to %s%n", requests.requests().size(),
                    requests.port(), requests.protocol() == null ? "" : " (" + requests.protocol().label() + ")",
                    capture, String.join(", ", to));
            err.flush();
            Replay.Report report;
            try (PcapWriter writer = write == null ? null : PcapWriter.create(write)) {
                Replay replay = new Replay(targets, retransmit, pacing, wait, writer == null ? null : recorder(writer),
                        new Replay.Lanes(sockets, window));
                if (duration == null) {
                    if (!vary.isEmpty() || secret != null) {
                        throw new IllegalArgumentException("--vary and --secret go with --duration (load from a template)");
                    }
                    report = replay.run(requests);
                } else {
                    Duration length = Durations.parse(duration);
                    if (!rated && !closedLoop) {
                        throw new IllegalArgumentException("--duration needs --rate (open loop) or --window (closed loop)");
                    }
                    List<Template.Variation> variations = new ArrayList<>();
                    for (String v : vary) {
                        variations.add(Template.Variation.parse(v));
                    }
                    Template template = new Template(requests, variations,
                            secret == null ? null : secret.getBytes(StandardCharsets.UTF_8));
                    if (rated) {
                        long count = (long) Math.ceil(pace.rate * length.toNanos() / 1e9);
                        if (count < 1 || count > Integer.MAX_VALUE) {
                            throw new IllegalArgumentException("--rate × --duration must be between 1 and 2^31 requests");
                        }
                        report = replay.run(requests.protocol(), (int) count, template);
                    } else {
                        report = replay.run(requests.protocol(), length, template);
                    }
                }
                if (replay.recordFailure() != null) {
                    throw replay.recordFailure();
                }
            }
            out.println(json(Map.of("replay", report.toMap())));
            out.flush();
            return report.lost() + report.late() == 0 ? 0 : 1;
        } catch (CaptureException | IllegalArgumentException e) {
            err.println("replay: " + e.getMessage());
            err.flush();
            return 2;
        } catch (IOException e) {
            err.println("replay: " + (write != null ? write + ": " : "") + e.getMessage());
            err.flush();
            return 2;
        }
    }

    private static Replay.Recorder recorder(PcapWriter writer) {
        return new Replay.Recorder() {
            @Override
            public void sent(InetSocketAddress from, InetSocketAddress to, byte[] payload) throws IOException {
                writer.time(java.time.Instant.now()).udp(from.getAddress(), from.getPort(), to.getAddress(), to.getPort(), payload);
            }

            @Override
            public void received(InetSocketAddress from, InetSocketAddress to, byte[] payload) throws IOException {
                writer.time(java.time.Instant.now()).udp(from.getAddress(), from.getPort(), to.getAddress(), to.getPort(), payload);
            }
        };
    }

    /** {@code host:port} or {@code [v6]:port}. */
    static InetSocketAddress target(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("--to: expected HOST:PORT, e.g. 127.0.0.1:1812: " + text);
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--to: port is not a number: " + text);
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--to: port out of range: " + text);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--to: unknown host " + host);
        }
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
