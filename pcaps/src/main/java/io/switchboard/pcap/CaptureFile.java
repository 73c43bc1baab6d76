package io.switchboard.pcap;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;

/**
 * A {@code .pcap} or {@code .pcapng} file read record by record through pcap4j, that is through the
 * system's libpcap (Debian package {@code libpcap0.8}), which reads both formats. Frames are numbered
 * from 1 as tshark numbers them. Not thread-safe; close it when done.
 *
 * <pre>{@code
 * try (CaptureFile capture = CaptureFile.open(path)) {
 *     for (CaptureFrame frame = capture.next(); frame != null; frame = capture.next()) { ... }
 * }
 * }</pre>
 */
public final class CaptureFile implements AutoCloseable {

    private final Path path;
    private final PcapHandle handle;
    private final int linkType;
    private final Iterator<CaptureFrame> fallback;
    private int frames;

    private CaptureFile(Path path, PcapHandle handle) {
        this.path = path;
        this.handle = handle;
        this.linkType = handle.getDlt().value();
        this.fallback = null;
    }

    private CaptureFile(Path path, List<CaptureFrame> frames) {
        this.path = path;
        this.handle = null;
        this.linkType = frames.isEmpty() ? -1 : frames.get(0).linkType();
        this.fallback = frames.iterator();
    }

    /**
     * Opens a capture file; a file that is missing or that libpcap does not take is a
     * {@link CaptureException}. A pcapng file whose interfaces differ in link type or snap length,
     * which libpcap refuses, is read by {@link PcapngBlocks} instead.
     */
    public static CaptureFile open(Path path) throws CaptureException {
        if (!Files.isReadable(path)) {
            throw new CaptureException(path + ": no such readable file");
        }
        try {
            byte[] head = new byte[12];
            try (var in = Files.newInputStream(path)) {
                int read = in.readNBytes(head, 0, head.length);
                if (read == head.length && PcapngBlocks.isPcapng(head)) {
                    byte[] file = Files.readAllBytes(path);
                    if (PcapngBlocks.interfacesDiffer(file)) {
                        return new CaptureFile(path, PcapngBlocks.frames(file));
                    }
                }
            }
        } catch (IOException e) {
            throw new CaptureException(path + ": " + e.getMessage(), e);
        }
        try {
            return new CaptureFile(path, Pcaps.openOffline(path.toString(), PcapHandle.TimestampPrecision.NANO));
        } catch (PcapNativeException e) {
            throw new CaptureException(path + ": " + e.getMessage(), e);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new CaptureException("cannot load libpcap (install libpcap0.8): " + e.getMessage(), e);
        }
    }

    /** Every frame of a capture file. */
    public static List<CaptureFrame> readAll(Path path) throws CaptureException {
        List<CaptureFrame> out = new ArrayList<>();
        try (CaptureFile capture = open(path)) {
            for (CaptureFrame frame = capture.next(); frame != null; frame = capture.next()) {
                out.add(frame);
            }
        }
        return out;
    }

    /** The link type of the file (libpcap's DLT value; for a multi-interface pcapng, its first frame's). */
    public int linkType() {
        return linkType;
    }

    /** The next frame, or {@code null} at the end of the file. */
    public CaptureFrame next() throws CaptureException {
        if (fallback != null) {
            return fallback.hasNext() ? fallback.next() : null;
        }
        try {
            byte[] data = handle.getNextRawPacketEx();
            Timestamp ts = handle.getTimestamp();
            frames++;
            return new CaptureFrame(frames, ts.toInstant(), linkType, handle.getOriginalLength(), data);
        } catch (EOFException e) {
            return null;
        } catch (PcapNativeException | NotOpenException | TimeoutException e) {
            // libpcap stops at the record it cannot read: name it as tshark would number it
            throw new CaptureException(path + ": frame " + (frames + 1) + " cannot be read (the file ends or is"
                    + " damaged there; frames before it were read): " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (handle != null) {
            handle.close();
        }
    }
}
