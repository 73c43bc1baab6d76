package io.switchboard.director.persist;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * The content of a snapshot file and its layout: every sticky table's live bindings with their idle
 * times, every shared table's entries, each table by name, keys and values as their codecs wrote
 * them (this class reads no entry).
 *
 * <pre>
 * magic "SWBDSNAP" · version (int32, 1) · written at (int64, epoch milliseconds)
 * sticky tables (int32), each: name (UTF) · entries (int32), each: key · binding (int32 length + bytes) · idle (int64 ns)
 * shared tables (int32), each: name (UTF) · entries (int32), each: key · value (int32 length + bytes)
 * CRC-32 of everything before it (int32)
 * </pre>
 *
 * A file is written beside its place and renamed over it, so a reader sees the old snapshot or the
 * new one, never half of one.
 */
public record Snapshot(long writtenMillis, Map<String, List<Binding>> sticky, Map<String, List<Entry>> shared) {

    static final int VERSION = 1;
    private static final byte[] MAGIC = "SWBDSNAP".getBytes(StandardCharsets.US_ASCII);
    /** No key, value or table is this big: a length beyond it is a damaged file, not an allocation. */
    private static final int MAX_LENGTH = 1 << 24;

    /** A sticky binding, unused for {@code idleNanos} when the snapshot was taken. */
    public record Binding(byte[] key, byte[] binding, long idleNanos) {
    }

    /** A shared table's entry. */
    public record Entry(byte[] key, byte[] value) {
    }

    /** A file that is not a snapshot this build reads: foreign, damaged or of another version. */
    public static final class UnreadableException extends IOException {
        UnreadableException(String message) {
            super(message);
        }
    }

    public Snapshot {
        sticky = new LinkedHashMap<>(sticky);
        shared = new LinkedHashMap<>(shared);
    }

    public static Snapshot empty() {
        return new Snapshot(0, Map.of(), Map.of());
    }

    /** Entries over every table. */
    public long entries() {
        return sticky.values().stream().mapToLong(List::size).sum() + shared.values().stream().mapToLong(List::size).sum();
    }

    /** Writes {@code file} atomically: a temporary file beside it, forced to disk, renamed over it. */
    public void write(Path file) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            CRC32 crc = new CRC32();
            // Not closed: the channel is, by its try, once forced to disk.
            DataOutputStream out = new DataOutputStream(new CheckedOutputStream(new BufferedOutputStream(
                    Channels.newOutputStream(channel)), crc));
            out.write(MAGIC);
            out.writeInt(VERSION);
            out.writeLong(writtenMillis);
            out.writeInt(sticky.size());
            for (Map.Entry<String, List<Binding>> table : sticky.entrySet()) {
                out.writeUTF(table.getKey());
                out.writeInt(table.getValue().size());
                for (Binding b : table.getValue()) {
                    bytes(out, b.key);
                    bytes(out, b.binding);
                    out.writeLong(b.idleNanos);
                }
            }
            out.writeInt(shared.size());
            for (Map.Entry<String, List<Entry>> table : shared.entrySet()) {
                out.writeUTF(table.getKey());
                out.writeInt(table.getValue().size());
                for (Entry e : table.getValue()) {
                    bytes(out, e.key);
                    bytes(out, e.value);
                }
            }
            out.flush();
            out.writeInt((int) crc.getValue());
            out.flush();
            channel.force(true);
        }
        try {
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Reads {@code file}.
     *
     * @throws UnreadableException when it is not a whole snapshot of this version
     * @throws IOException         when it cannot be read at all
     */
    public static Snapshot read(Path file) throws IOException {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
            CRC32 crc = new CRC32();
            DataInputStream in = new DataInputStream(new CheckedInputStream(raw, crc));
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new UnreadableException("not a Switchboard snapshot");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new UnreadableException("snapshot version " + version + "; this build reads version " + VERSION);
            }
            long written = in.readLong();
            Map<String, List<Binding>> sticky = new LinkedHashMap<>();
            for (int t = count(in); t > 0; t--) {
                String name = in.readUTF();
                List<Binding> bindings = new ArrayList<>();
                for (int i = count(in); i > 0; i--) {
                    bindings.add(new Binding(bytes(in), bytes(in), in.readLong()));
                }
                sticky.put(name, bindings);
            }
            Map<String, List<Entry>> shared = new LinkedHashMap<>();
            for (int t = count(in); t > 0; t--) {
                String name = in.readUTF();
                List<Entry> entries = new ArrayList<>();
                for (int i = count(in); i > 0; i--) {
                    entries.add(new Entry(bytes(in), bytes(in)));
                }
                shared.put(name, entries);
            }
            int expected = (int) crc.getValue();
            if (in.readInt() != expected) {
                throw new UnreadableException("checksum mismatch: the file is damaged");
            }
            if (in.read() >= 0) {
                throw new UnreadableException("data after the checksum");
            }
            return new Snapshot(written, sticky, shared);
        } catch (EOFException e) {
            throw new UnreadableException("truncated");
        }
    }

    private static void bytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] bytes(DataInputStream in) throws IOException {
        byte[] bytes = new byte[count(in)];
        in.readFully(bytes);
        return bytes;
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_LENGTH) {
            throw new UnreadableException("a length of " + n + ": the file is damaged");
        }
        return n;
    }
}
