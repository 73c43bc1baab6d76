package io.switchboard.director.dfp;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A second DFP implementation for the tests, written from the text of draft-eck-dfp-01 alone (and
 * RFC 1828 for the keyed MD5 the draft points to), with blocking sockets and none of the production
 * classes: so that what the director sends and reads is checked against the draft, not against
 * itself. No Debian package holds a DFP peer and tshark has no DFP dissector.
 *
 * <p>As an agent it listens and answers one manager; as a manager it connects to an agent.
 */
final class DraftDfpPeer implements AutoCloseable {

    // §6 message types and §5 TLV types, from the draft's tables.
    static final int PREFERENCE_INFORMATION = 0x0101;
    static final int SERVER_STATE = 0x0201;
    static final int DFP_PARAMETERS = 0x0301;
    static final int BIND_ID_REQUEST = 0x0401;
    static final int BIND_ID_REPORT = 0x0402;
    static final int SECURITY = 0x0001;
    static final int LOAD = 0x0002;
    static final int KEEP_ALIVE = 0x0101;
    static final int BIND_ID_TABLE = 0x0301;

    /** A Host Preference Field of §5.2. */
    record Host(String ip, int bindId, int weight) {
    }

    /** A message as read: its type, its TLVs (type, value), and whether an MD5 TLV verified. */
    record Read(int version, int type, List<int[]> tlvHeaders, List<byte[]> tlvValues, boolean md5Verified) {
        byte[] value(int tlvType) {
            for (int i = 0; i < tlvHeaders.size(); i++) {
                if (tlvHeaders.get(i)[0] == tlvType) {
                    return tlvValues.get(i);
                }
            }
            return null;
        }

        /** The hosts of every Load TLV, with the TLV's port and protocol: {ip, bindId, weight, port, protocol}. */
        List<Object[]> hosts() {
            List<Object[]> out = new ArrayList<>();
            for (int i = 0; i < tlvHeaders.size(); i++) {
                if (tlvHeaders.get(i)[0] != LOAD) {
                    continue;
                }
                byte[] v = tlvValues.get(i);
                int port = u16(v, 0);
                int protocol = v[2] & 0xff;
                int n = u16(v, 4);
                for (int h = 0; h < n; h++) {
                    int at = 8 + 8 * h;
                    String ip = (v[at] & 0xff) + "." + (v[at + 1] & 0xff) + "." + (v[at + 2] & 0xff) + "." + (v[at + 3] & 0xff);
                    out.add(new Object[] {ip, u16(v, at + 4), u16(v, at + 6), port, protocol});
                }
            }
            return out;
        }
    }

    private final String password;
    private ServerSocket listener;
    private volatile Socket socket;
    private final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
    private Thread reader;

    private DraftDfpPeer(String password) {
        this.password = password;
    }

    /** An agent listening on {@code address} (an ephemeral port), accepting one manager at a time. */
    static DraftDfpPeer agent(String address, String password) throws IOException {
        DraftDfpPeer p = new DraftDfpPeer(password);
        p.listener = new ServerSocket();
        p.listener.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
        p.reader = new Thread(p::acceptLoop, "draft-dfp-agent");
        p.reader.setDaemon(true);
        p.reader.start();
        return p;
    }

    /** A manager connected to the agent at {@code address:port}. */
    static DraftDfpPeer manager(String address, int port, String password) throws IOException {
        DraftDfpPeer p = new DraftDfpPeer(password);
        Socket s = new Socket();
        s.connect(new InetSocketAddress(InetAddress.getByName(address), port), 5000);
        p.socket = s;
        p.reader = new Thread(() -> p.readLoop(s), "draft-dfp-manager");
        p.reader.setDaemon(true);
        p.reader.start();
        return p;
    }

    int port() {
        return listener.getLocalPort();
    }

    boolean connected() {
        Socket s = socket;
        return s != null && !s.isClosed();
    }

    private void acceptLoop() {
        try {
            while (!listener.isClosed()) {
                Socket s = listener.accept();
                socket = s;
                readLoop(s);
            }
        } catch (IOException closed) {
            // the test closed the listener
        }
    }

    private void readLoop(Socket s) {
        try {
            DataInputStream in = new DataInputStream(s.getInputStream());
            while (true) {
                byte[] head = new byte[8];
                in.readFully(head);
                int length = (int) (((head[4] & 0xffL) << 24) | ((head[5] & 0xff) << 16) | ((head[6] & 0xff) << 8)
                        | (head[7] & 0xff)); // §4.1: "the entire length of the message, including the signal header"
                byte[] whole = Arrays.copyOf(head, length);
                in.readFully(whole, 8, length - 8);
                received.add(parse(whole));
            }
        } catch (EOFException | java.net.SocketException end) {
            received.add("closed");
        } catch (IOException e) {
            received.add(e);
        }
    }

    private Read parse(byte[] m) {
        List<int[]> headers = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        boolean verified = false;
        int at = 8;
        while (at < m.length) {
            int type = u16(m, at);
            int length = u16(m, at + 2); // §4.1: "the length of the TLV data plus the TLV header"
            byte[] value = Arrays.copyOfRange(m, at + 4, at + length);
            if (type == SECURITY && password != null && at == 8) {
                byte[] zeroed = m.clone();
                Arrays.fill(zeroed, at + 12, at + 28, (byte) 0);
                verified = MessageDigest.isEqual(Arrays.copyOfRange(m, at + 12, at + 28), md5(zeroed));
            }
            headers.add(new int[] {type, length});
            values.add(value);
            at += length;
        }
        return new Read(m[0] & 0xff, u16(m, 2), headers, values, verified);
    }

    /** The next message read, or "closed" when the other side closed; fails after {@code seconds}. */
    Read next(int seconds) throws InterruptedException {
        Object o = received.poll(seconds, TimeUnit.SECONDS);
        if (o instanceof Read r) {
            return r;
        }
        throw new AssertionError("no DFP message within " + seconds + " s: " + o);
    }

    /** Waits for the connection to end. */
    void awaitClosed(int seconds) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < until) {
            Object o = received.poll(until - System.nanoTime(), TimeUnit.NANOSECONDS);
            if ("closed".equals(o)) {
                return;
            }
        }
        throw new AssertionError("still connected after " + seconds + " s");
    }

    /** §6.1: a Preference Information message with one Load TLV. */
    void sendPreferences(int port, int protocol, Host... hosts) throws IOException {
        ByteArrayOutputStream tlv = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(tlv);
        out.writeShort(LOAD);
        out.writeShort(4 + 8 + 8 * hosts.length);
        out.writeShort(port);
        out.writeByte(protocol);
        out.writeByte(0); // flags
        out.writeShort(hosts.length);
        out.writeShort(0); // reserved
        for (Host h : hosts) {
            out.write(InetAddress.getByName(h.ip()).getAddress());
            out.writeShort(h.bindId());
            out.writeShort(h.weight());
        }
        send(PREFERENCE_INFORMATION, tlv.toByteArray());
    }

    /** A message of {@code type} with the given TLV bytes, an MD5 Security TLV first when keyed. */
    void send(int type, byte[] tlvs) throws IOException {
        int securityLength = password == null ? 0 : 28;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1); // Version = 0x01
        out.writeByte(0);
        out.writeShort(type);
        out.writeInt(8 + securityLength + tlvs.length);
        if (password != null) {
            out.writeShort(SECURITY);
            out.writeShort(28);
            out.writeInt(1); // MD5_Security
            out.writeInt(0); // key ID: "The default value for a single key should be zero"
            out.write(new byte[16]);
        }
        out.write(tlvs);
        byte[] m = bytes.toByteArray();
        if (password != null) {
            System.arraycopy(md5(m), 0, m, 20, 16);
        }
        socket.getOutputStream().write(m);
        socket.getOutputStream().flush();
    }

    /** Closes the connection (the listener stays for the next one). */
    void hangUp() throws IOException {
        Socket s = socket;
        if (s != null) {
            s.close();
        }
    }

    /** RFC 1828: MD5(key, keyfill to a 512-bit boundary, message, key). */
    private byte[] md5(byte[] message) {
        try {
            byte[] key = password.getBytes(StandardCharsets.US_ASCII);
            MessageDigest d = MessageDigest.getInstance("MD5");
            d.update(Arrays.copyOf(key, 64));
            d.update(message);
            d.update(key);
            return d.digest();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int u16(byte[] b, int at) {
        return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
    }

    @Override
    public void close() throws IOException {
        hangUp();
        if (listener != null) {
            listener.close();
        }
    }
}
