package io.switchboard.pcap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.director.udp.DatagramTap;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A virtual server's debug capture: what the director receives and sends for it, written to
 * rotating pcapng files ({@code <vserver>-<UTC start>-<n>.pcapng}) that tshark and Wireshark read.
 * The event loops only copy each datagram and offer it to a bounded queue ({@link #tap}); a writer
 * thread of its own writes the files. When the queue is full the datagram is dropped and counted
 * ({@code switchboard_capture_dropped_total}), so a capture never slows the director down; so is
 * every datagram after a write error (a full disk ends the capture's writing, not the director).
 */
public final class DebugCapture implements DatagramTap, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DebugCapture.class);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private static final InetAddress ANY_V4 = anyV4();

    private static InetAddress anyV4() {
        try {
            return InetAddress.getByAddress(new byte[4]);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Frame(long micros, InetSocketAddress from, InetSocketAddress to, byte[] bytes) {
    }

    private final String vserver;
    private final Path directory;
    private final long fileBytes;
    private final int files;
    private final ArrayBlockingQueue<Frame> queue;
    private final Counter captured;
    private final Counter dropped;
    private final long baseMicros = System.currentTimeMillis() * 1000;
    private final long baseNanos = System.nanoTime();
    private final String prefix;
    private final ArrayDeque<Path> written = new ArrayDeque<>();
    private final Thread writer;
    private volatile boolean open = true;
    private volatile boolean failed;
    private PcapWriter file;
    private int sequence;

    /**
     * Opens the first file and starts the writer thread.
     *
     * @throws IOException when the directory or the first file cannot be made
     */
    public DebugCapture(String vserver, Path directory, long fileBytes, int files, int queue, MeterRegistry registry)
            throws IOException {
        this.vserver = vserver;
        this.directory = directory;
        this.fileBytes = fileBytes;
        this.files = files;
        this.queue = new ArrayBlockingQueue<>(queue);
        this.captured = Counter.builder("switchboard_capture_frames").description("datagrams written to the debug capture")
                .tag("vserver", vserver).register(registry);
        this.dropped = Counter.builder("switchboard_capture_dropped")
                .description("datagrams the debug capture dropped: its queue was full, or writing failed")
                .tag("vserver", vserver).register(registry);
        this.prefix = vserver + "-" + STAMP.format(java.time.Instant.now()) + "-";
        Files.createDirectories(directory);
        nextFile();
        this.writer = new Thread(this::write, "debug-capture-" + vserver);
        writer.setDaemon(true);
        writer.start();
    }

    /** On an event loop: copies the datagram and queues it; never blocks. */
    @Override
    public void tap(InetSocketAddress from, InetSocketAddress to, ByteBuf datagram) {
        byte[] bytes = new byte[datagram.readableBytes()];
        datagram.getBytes(datagram.readerIndex(), bytes);
        long micros = baseMicros + (System.nanoTime() - baseNanos) / 1000;
        if (failed || !queue.offer(new Frame(micros, from, to, bytes))) {
            dropped.increment();
        }
    }

    private void write() {
        List<Frame> batch = new ArrayList<>(1024);
        try {
            while (open || !queue.isEmpty()) {
                Frame first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    file.flush(); // quiet: make what was captured readable now
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, 1023);
                for (Frame f : batch) {
                    if (failed) {
                        dropped.increment();
                        continue;
                    }
                    InetAddress[] ends = oneFamily(f.from().getAddress(), f.to().getAddress());
                    file.timeMicros(f.micros()).udp(ends[0], f.from().getPort(), ends[1], f.to().getPort(), f.bytes());
                    captured.increment();
                    if (file.bytesWritten() >= fileBytes) {
                        file.close();
                        nextFile();
                    }
                }
                batch.clear();
            }
            file.close();
        } catch (IOException | RuntimeException e) {
            failed = true;
            LOG.warn("debug capture of {}: cannot write {}: {}; capture stopped writing", vserver, directory, e.toString());
            drainAsDropped();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Both ends in one IP version, as a frame needs: a socket bound to the IPv6 wildcard that talks
     * IPv4 reports {@code ::} as its address (written as 0.0.0.0); otherwise IPv4 becomes IPv4-mapped IPv6.
     */
    static InetAddress[] oneFamily(InetAddress a, InetAddress b) {
        if ((a instanceof Inet4Address) == (b instanceof Inet4Address)) {
            return new InetAddress[] {a, b};
        }
        if (a.isAnyLocalAddress() || b.isAnyLocalAddress()) {
            return new InetAddress[] {a.isAnyLocalAddress() ? ANY_V4 : a, b.isAnyLocalAddress() ? ANY_V4 : b};
        }
        return new InetAddress[] {mapped(a), mapped(b)};
    }

    private static InetAddress mapped(InetAddress address) {
        if (!(address instanceof Inet4Address)) {
            return address;
        }
        byte[] v6 = new byte[16];
        v6[10] = (byte) 0xFF;
        v6[11] = (byte) 0xFF;
        System.arraycopy(address.getAddress(), 0, v6, 12, 4);
        try {
            return java.net.Inet6Address.getByAddress(null, v6, -1);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private void drainAsDropped() {
        while (open) {
            try {
                if (queue.poll(100, TimeUnit.MILLISECONDS) != null) {
                    dropped.increment();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private synchronized void nextFile() throws IOException {
        Path next = directory.resolve(prefix + (++sequence) + ".pcapng");
        file = PcapWriter.createPcapng(next);
        written.add(next);
        while (written.size() > files) {
            Files.deleteIfExists(written.poll());
        }
    }

    /** The files of this capture that are kept, oldest first (the last one is being written). */
    public synchronized List<Path> files() {
        return List.copyOf(written);
    }

    public String vserver() {
        return vserver;
    }

    public long capturedCount() {
        return (long) captured.count();
    }

    public long droppedCount() {
        return (long) dropped.count();
    }

    /** Stops taking datagrams (the caller has removed the tap), writes what is queued, closes the file. */
    @Override
    public void close() {
        open = false;
        try {
            writer.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
