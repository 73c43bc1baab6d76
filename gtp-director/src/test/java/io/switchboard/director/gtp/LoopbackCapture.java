package io.switchboard.director.gtp;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A live capture on {@code lo} by tshark (dumpcap underneath), limited by a capture filter to the
 * test's own addresses: what the director really wrote on the wire, for tshark to decode afterwards.
 * Needs the capture privileges root has (CI runs as root); {@link #available()} says whether it can.
 */
final class LoopbackCapture implements AutoCloseable {

    private final Process process;
    private final Path file;
    private final Path log;
    private final InetSocketAddress marker;

    private LoopbackCapture(Process process, Path file, Path log, InetSocketAddress marker) {
        this.process = process;
        this.file = file;
        this.log = log;
        this.marker = marker;
    }

    /** tshark is installed and this process may capture (root). */
    static boolean available() {
        return Tshark.available() && "root".equals(System.getProperty("user.name"));
    }

    /**
     * Starts capturing into {@code file} and returns once the capture holds a datagram sent after
     * it started (tshark says "Capturing on" a little before dumpcap takes packets).
     *
     * @param filter a BPF capture filter, such as {@code udp and net 127.0.11.0/24}
     * @param marker an address the filter keeps where nothing listens (its port and the next one):
     *               a datagram sent there shows that the capture holds everything sent before it
     */
    static LoopbackCapture start(Path file, String filter, InetSocketAddress marker)
            throws IOException, InterruptedException {
        Path log = file.resolveSibling(file.getFileName() + ".log");
        Process process = new ProcessBuilder(Tshark.BINARY.toString(), "-n", "-i", "lo", "-f", filter, "-w",
                file.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        LoopbackCapture capture = new LoopbackCapture(process, file, log, marker);
        try {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !process.isAlive() || capture.logText().contains("Capturing on"));
            capture.awaitMarker(marker.getPort());
        } catch (RuntimeException e) {
            capture.close();
            throw e;
        }
        if (!process.isAlive()) {
            throw new IOException("tshark could not capture on lo: " + capture.logText());
        }
        return capture;
    }

    private String logText() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /**
     * Stops the capture once it holds everything sent so far (the packets reach dumpcap a little
     * after they were sent: it stops when its end marker is in the file) and returns the file.
     */
    Path stop() throws IOException, InterruptedException {
        if (process.isAlive()) {
            awaitMarker(marker.getPort() + 1);
        }
        close();
        if (!Files.exists(file)) {
            throw new IOException("tshark wrote no capture: " + logText());
        }
        return file;
    }

    /** Sends a marker datagram to {@code port} of the marker address until the file holds one. */
    private void awaitMarker(int port) {
        InetSocketAddress to = new InetSocketAddress(marker.getAddress(), port);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            byte[] mark = "capture marker".getBytes(StandardCharsets.US_ASCII);
            try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
                socket.send(new DatagramPacket(mark, mark.length, to));
            }
            return !process.isAlive() || holds(to);
        });
    }

    /** Whether the file, as far as it is written, holds a datagram to {@code to}. */
    private boolean holds(InetSocketAddress to) throws IOException, InterruptedException {
        Process tshark = new ProcessBuilder(Tshark.BINARY.toString(), "-n", "-r", file.toString(), "-Y",
                "ip.dst == " + to.getAddress().getHostAddress() + " && udp.dstport == " + to.getPort())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        // A record being written reads as a cut-off file: what came before it still shows.
        boolean shown = tshark.getInputStream().readAllBytes().length > 0;
        tshark.waitFor(60, TimeUnit.SECONDS);
        return shown;
    }

    /** The GTPv2-C frames of the capture, decoded by tshark. */
    List<GtpV2Frames.Frame> frames() throws IOException, InterruptedException {
        return GtpV2Frames.read(stop());
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy(); // SIGTERM: tshark stops dumpcap and flushes the file
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
