package io.switchboard.bench;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusView;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The churn load of the soak (benchmarks/soak/run.sh): subscribers that come and go, open loop, so
 * that a director's tables have a bounded steady state that a leak would make grow.
 * <ul>
 *   <li>GTP: step n attaches subscriber n (a GTPv2 Create Session Request, the GTP benchmark's
 *       template with IMSI 00101 + n and its own sender F-TEID) and detaches subscriber n − LIVE (a
 *       Delete Session Request to the control TEID the director gave it in the Create Session
 *       Response, TS 29.274 §7.2.9.1): LIVE sessions in steady state, over an IMSI space of 10^10.</li>
 *   <li>RADIUS: step n sends user n's Access-Request (User-Name, User-Password, Calling-Station-Id,
 *       Message-Authenticator, RFC 2865 §4.1 / RFC 3579 §3.2); its Access-Accept sends its
 *       Accounting-Start with a Framed-IP-Address (RFC 2866 §4.1), and step n sends user n − LIVE's
 *       Accounting-Stop (when its Start was answered): LIVE Framed-IP bindings in steady state.</li>
 * </ul>
 * A request unanswered after 2 s is lost (counted by kind); an answer that comes later is "late"
 * (for RADIUS also one that does not verify for the request now holding its identifier); "bad" is
 * an answer that does not parse.
 * RADIUS identifiers are per socket (256 each, RFC 2865 §3); a request for which no identifier is
 * free is not sent ("no-id"). Every 10 s and at the end it prints one line of totals:
 * {@code t=S KIND_sent=… KIND_answered=… KIND_rejected=… KIND_lost=… … late=… bad=… no_id=… unattached=…}.
 *
 * <pre>java -cp benchmarks.jar io.switchboard.bench.Churn TEMPLATE.pcap GTP_HOST:PORT AUTH_HOST:PORT ACCT_HOST:PORT
 *     SECRET GTP_RATE RADIUS_RATE LIVE SECONDS</pre>
 * GTP_RATE and RADIUS_RATE are requests per second in steady state (two per GTP step, three per
 * RADIUS step).
 */
public final class Churn {

    static final String[] KINDS = {"create", "delete", "access", "start", "stop"};
    static final int CREATE = 0, DELETE = 1, ACCESS = 2, START = 3, STOP = 4;
    static final long TIMEOUT = 2_000_000_000L;
    /** Sockets per virtual server: 16 × 256 RADIUS identifiers in flight (4 ran out at 5,000/s). */
    static final int SOCKETS = 16;
    static final int RAMP_S = 30;

    record Pending(int kind, long n, long sent, byte[] authenticator) {
    }

    final AtomicLong[][] counts = new AtomicLong[KINDS.length][4]; // sent, answered, rejected, lost
    final AtomicLong late = new AtomicLong(), bad = new AtomicLong(), noId = new AtomicLong(),
            unattached = new AtomicLong();
    final byte[] template;
    final int imsiAt, fteidAt;
    final byte[] secret;
    final int live;
    final DatagramChannel[] gtp = new DatagramChannel[SOCKETS];
    final DatagramChannel[] auth = new DatagramChannel[SOCKETS];
    final DatagramChannel[] acct = new DatagramChannel[SOCKETS];
    final Map<Integer, Pending> gtpPending = new ConcurrentHashMap<>();
    final AtomicInteger sequence = new AtomicInteger();
    @SuppressWarnings("unchecked")
    final AtomicReferenceArray<Pending>[] radiusPending = new AtomicReferenceArray[2 * SOCKETS];
    final AtomicInteger[] nextId = new AtomicInteger[2 * SOCKETS];
    /** Per GTP slot (n mod LIVE): 1 << 32 | the director's control TEID once n's create was accepted. */
    final AtomicLongArray teids;
    /** Per RADIUS slot: n + 1 once user n's Accounting-Start was answered. */
    final AtomicLongArray started;
    volatile long gtpStep, radiusStep;

    Churn(byte[] template, byte[] secret, int live) {
        this.template = template;
        this.secret = secret;
        this.live = live;
        int imsi = -1, fteid = -1;
        // TS 29.274 §5.1: header with TEID is 12 octets; §8.2: each IE is type, length (2), instance, value.
        for (int off = 12; off + 4 <= template.length; off += 4 + u16(template, off + 1)) {
            int type = template[off] & 0xff;
            if (type == 1) {
                imsi = off;
            } else if (type == 87 && (template[off + 3] & 0x0f) == 0 && fteid < 0) {
                fteid = off;
            }
        }
        if (imsi < 0 || fteid < 0 || u16(template, imsi + 1) != 8) {
            throw new IllegalArgumentException("the template has no 15-digit IMSI or sender F-TEID");
        }
        this.imsiAt = imsi;
        this.fteidAt = fteid;
        this.teids = new AtomicLongArray(live);
        this.started = new AtomicLongArray(live);
        for (AtomicLong[] row : counts) {
            for (int i = 0; i < row.length; i++) {
                row[i] = new AtomicLong();
            }
        }
        for (int i = 0; i < radiusPending.length; i++) {
            radiusPending[i] = new AtomicReferenceArray<>(256);
            nextId[i] = new AtomicInteger();
        }
    }

    static int u16(byte[] b, int off) {
        return (b[off] & 0xff) << 8 | (b[off + 1] & 0xff);
    }

    /** The UDP payload of the first frame of a classic pcap file (Ethernet, IPv4). */
    static byte[] pcapPayload(Path file) throws IOException {
        byte[] d = Files.readAllBytes(file);
        int ip = 24 + 16 + 14;
        int udp = ip + (d[ip] & 0x0f) * 4;
        return Arrays.copyOfRange(d, udp + 8, udp + u16(d, udp + 4));
    }

    // ---- GTP ----

    void attach(long n) throws IOException {
        byte[] p = template.clone();
        String digits = String.format("00101%010d", n % 10_000_000_000L);
        for (int i = 0; i < 8; i++) { // TBCD, TS 29.274 §8.3: digit 2i in the low nibble, filler 0xF last
            int lo = digits.charAt(2 * i) - '0';
            int hi = 2 * i + 1 < 15 ? digits.charAt(2 * i + 1) - '0' : 0x0f;
            p[imsiAt + 4 + i] = (byte) (hi << 4 | lo);
        }
        ByteBuffer.wrap(p).putInt(fteidAt + 5, (int) (n % 0x7fffffffL) + 1); // the MME's own TEID-C
        sendGtp(p, 0, new Pending(CREATE, n, System.nanoTime(), null));
    }

    void detach(long n) throws IOException {
        long t = teids.getAndSet((int) (n % live), 0);
        if (t == 0) {
            unattached.incrementAndGet(); // its create was lost or refused: nothing to delete
            return;
        }
        // Delete Session Request: header TEID the director's control TEID, Linked EBI 5 (§7.2.9.1).
        byte[] p = {0x48, 36, 0, 13, 0, 0, 0, 0, 0, 0, 0, 0, 73, 0, 1, 0, 5};
        sendGtp(p, (int) t, new Pending(DELETE, n, System.nanoTime(), null));
    }

    void sendGtp(byte[] p, int teid, Pending pending) throws IOException {
        int seq = sequence.getAndIncrement() & 0xffffff;
        ByteBuffer b = ByteBuffer.wrap(p);
        b.putInt(4, teid);
        b.put(8, (byte) (seq >> 16)).put(9, (byte) (seq >> 8)).put(10, (byte) seq);
        gtpPending.put(seq, pending);
        counts[pending.kind][0].incrementAndGet();
        gtp[seq % SOCKETS].write(b);
    }

    void gtpAnswer(ByteBuffer b) {
        byte[] p = new byte[b.remaining()];
        b.get(p);
        if (p.length < 12) {
            bad.incrementAndGet();
            return;
        }
        int seq = (p[8] & 0xff) << 16 | (p[9] & 0xff) << 8 | (p[10] & 0xff);
        Pending pending = gtpPending.remove(seq);
        if (pending == null) {
            late.incrementAndGet();
            return;
        }
        int cause = -1, teid = 0;
        boolean haveTeid = false;
        for (int off = 12; off + 4 <= p.length; off += 4 + u16(p, off + 1)) {
            int type = p[off] & 0xff;
            if (type == 2 && off + 4 < p.length) {
                cause = p[off + 4] & 0xff;
            } else if (type == 87 && (p[off + 3] & 0x0f) == 0 && off + 9 <= p.length) {
                teid = ByteBuffer.wrap(p).getInt(off + 5);
                haveTeid = true;
            }
        }
        boolean accepted = cause >= 16 && cause <= 19; // TS 29.274 §8.4: the accepted causes
        counts[pending.kind][accepted ? 1 : 2].incrementAndGet();
        // A create answered after its subscriber's detach step is not recorded (the slot is the next one's).
        if (pending.kind == CREATE && accepted && haveTeid && gtpStep < pending.n + live) {
            teids.set((int) (pending.n % live), 1L << 32 | (teid & 0xffffffffL));
        }
    }

    // ---- RADIUS ----

    static void attribute(ByteArrayOutputStream out, int type, byte[] value) {
        out.write(type);
        out.write(2 + value.length);
        out.write(value, 0, value.length);
    }

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    void access(long n) throws IOException {
        byte[] authenticator = new byte[16];
        ThreadLocalRandom.current().nextBytes(authenticator);
        ByteArrayOutputStream a = new ByteArrayOutputStream();
        attribute(a, 1, text("user" + n));
        attribute(a, 2, RadiusAuthenticators.hideUserPassword(text("password"), secret, authenticator));
        attribute(a, 31, text(String.format("49%011d", n)));
        attribute(a, 80, new byte[16]); // Message-Authenticator, computed by signRequest
        sendRadius(1, authenticator, a.toByteArray(), new Pending(ACCESS, n, System.nanoTime(), authenticator));
    }

    void accounting(long n, int status) throws IOException {
        ByteArrayOutputStream a = new ByteArrayOutputStream();
        attribute(a, 40, new byte[] {0, 0, 0, (byte) status}); // Acct-Status-Type: 1 Start, 2 Stop
        attribute(a, 44, text("s" + n));                        // Acct-Session-Id
        attribute(a, 1, text("user" + n));
        attribute(a, 31, text(String.format("49%011d", n)));
        int ip = 0x0a000000 | (int) (n & 0x7fffff);              // 10.0.0.0/9, unique within the window
        attribute(a, 8, ByteBuffer.allocate(4).putInt(ip).array());
        sendRadius(4, new byte[16], a.toByteArray(),
                new Pending(status == 1 ? START : STOP, n, System.nanoTime(), null));
    }

    void sendRadius(int code, byte[] authenticator, byte[] attributes, Pending pending) throws IOException {
        int base = code == 1 ? 0 : SOCKETS;
        int socket = base + (int) (pending.n % SOCKETS);
        AtomicReferenceArray<Pending> ids = radiusPending[socket];
        int id = -1;
        for (int i = 0; i < 256 && id < 0; i++) {
            int candidate = nextId[socket].getAndIncrement() & 0xff;
            if (ids.compareAndSet(candidate, null, pending)) {
                id = candidate;
            }
        }
        if (id < 0) {
            noId.incrementAndGet();
            return;
        }
        byte[] p = new byte[20 + attributes.length];
        p[0] = (byte) code;
        p[1] = (byte) id;
        p[2] = (byte) (p.length >> 8);
        p[3] = (byte) p.length;
        System.arraycopy(authenticator, 0, p, 4, 16);
        System.arraycopy(attributes, 0, p, 20, attributes.length);
        RadiusView view;
        try {
            view = RadiusView.wrap(Unpooled.wrappedBuffer(p));
        } catch (DecodeException e) {
            throw new IllegalStateException(e);
        }
        RadiusAuthenticators.signRequest(view, secret);
        Pending signed = code == 1 ? pending
                : new Pending(pending.kind, pending.n, pending.sent, Arrays.copyOfRange(p, 4, 20));
        ids.set(id, signed);
        counts[pending.kind][0].incrementAndGet();
        (code == 1 ? auth : acct)[socket - base].write(ByteBuffer.wrap(p));
    }

    void radiusAnswer(int socket, ByteBuffer b) throws IOException {
        byte[] p = new byte[b.remaining()];
        b.get(p);
        RadiusView view;
        try {
            view = RadiusView.wrap(Unpooled.wrappedBuffer(p));
        } catch (DecodeException e) {
            bad.incrementAndGet();
            return;
        }
        Pending pending = radiusPending[socket].getAndSet(view.identifier(), null);
        if (pending == null) {
            late.incrementAndGet();
            return;
        }
        if (!RadiusAuthenticators.verifyResponse(view, pending.authenticator, secret)) {
            // A late answer to an earlier request with this identifier (already counted lost): the
            // request now waiting keeps waiting.
            late.incrementAndGet();
            radiusPending[socket].compareAndSet(view.identifier(), null, pending);
            return;
        }
        boolean accepted = view.code() == 2 || view.code() == 5;
        counts[pending.kind][accepted ? 1 : 2].incrementAndGet();
        if (pending.kind == ACCESS && accepted) {
            accounting(pending.n, 1);
        } else if (pending.kind == START && accepted && radiusStep < pending.n + live) {
            started.set((int) (pending.n % live), pending.n + 1);
        }
    }

    void stop(long n) throws IOException {
        int slot = (int) (n % live);
        if (started.compareAndSet(slot, n + 1, 0)) {
            accounting(n, 2);
        } else {
            unattached.incrementAndGet(); // its Access or Start was lost or refused
        }
    }

    // ---- time ----

    /** Requests older than the timeout are lost: removed, counted by kind. */
    void sweep(long now) {
        gtpPending.entrySet().removeIf(e -> {
            if (now - e.getValue().sent > TIMEOUT) {
                counts[e.getValue().kind][3].incrementAndGet();
                return true;
            }
            return false;
        });
        for (AtomicReferenceArray<Pending> ids : radiusPending) {
            for (int id = 0; id < 256; id++) {
                Pending p = ids.get(id);
                if (p != null && now - p.sent > TIMEOUT && ids.compareAndSet(id, p, null)) {
                    counts[p.kind][3].incrementAndGet();
                }
            }
        }
    }

    String line(double seconds) {
        StringBuilder s = new StringBuilder(String.format("t=%.0f", seconds));
        String[] what = {"sent", "answered", "rejected", "lost"};
        for (int k = 0; k < KINDS.length; k++) {
            for (int i = 0; i < what.length; i++) {
                s.append(' ').append(KINDS[k]).append('_').append(what[i]).append('=').append(counts[k][i].get());
            }
        }
        return s.append(" late=").append(late.get()).append(" bad=").append(bad.get())
                .append(" no_id=").append(noId.get()).append(" unattached=").append(unattached.get()).toString();
    }

    interface Step {
        void run(long n) throws IOException;
    }

    /**
     * Open loop: step after step at STEPS_PER_S, a late sender catching up in a burst. The rate climbs
     * from 5 % over the first RAMP s: at full rate from the first second, the JIT compilers of a cold
     * director and generator (and this machine's other work) held answers past the timeout by the
     * ten thousand, a start-up loss, not the steady state the soak measures.
     */
    static Thread paced(String name, double stepsPerSecond, long start, long end, Step step) {
        Thread t = new Thread(() -> {
            double interval = 1e9 / Math.max(0.001, stepsPerSecond);
            double next = start;
            long n = 0;
            try {
                while (true) {
                    long now = System.nanoTime();
                    if (now >= end) {
                        return;
                    }
                    double ramp = Math.min(1, Math.max(0.05, (now - start) / (RAMP_S * 1e9)));
                    while (next <= now) {
                        step.run(n++);
                        next += interval / ramp;
                    }
                    LockSupport.parkNanos(Math.max(50_000, (long) next - System.nanoTime()));
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, name);
        t.start();
        return t;
    }

    static DatagramChannel open(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        DatagramChannel c = DatagramChannel.open();
        c.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4 << 20);
        c.bind(new InetSocketAddress("127.0.0.1", 0));
        c.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))));
        return c;
    }

    public static void main(String[] args) throws Exception {
        Churn churn = new Churn(pcapPayload(Path.of(args[0])), args[4].getBytes(StandardCharsets.UTF_8),
                Integer.parseInt(args[7]));
        double gtpRate = Double.parseDouble(args[5]), radiusRate = Double.parseDouble(args[6]);
        double seconds = Double.parseDouble(args[8]);
        for (int i = 0; i < SOCKETS; i++) {
            churn.gtp[i] = open(args[1]);
            churn.auth[i] = open(args[2]);
            churn.acct[i] = open(args[3]);
            final int socket = i;
            receiverOf(churn.gtp[i], "gtp-" + i, b -> churn.gtpAnswer(b));
            receiverOf(churn.auth[i], "auth-" + i, b -> churn.radiusAnswer(socket, b));
            receiverOf(churn.acct[i], "acct-" + i, b -> churn.radiusAnswer(SOCKETS + socket, b));
        }
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        Thread g = paced("gtp", gtpRate / 2, start, end, n -> {
            churn.gtpStep = n;
            if (n >= churn.live) {
                churn.detach(n - churn.live);
            }
            churn.attach(n);
        });
        Thread r = paced("radius", radiusRate / 3, start, end, n -> {
            churn.radiusStep = n;
            if (n >= churn.live) {
                churn.stop(n - churn.live);
            }
            churn.access(n);
        });
        long nextReport = start + 10_000_000_000L;
        while (g.isAlive() || r.isAlive()) {
            long now = System.nanoTime();
            churn.sweep(now);
            if (now >= nextReport) {
                System.out.println(churn.line((now - start) / 1e9));
                nextReport += 10_000_000_000L;
            }
            Thread.sleep(200);
        }
        // The last requests get their timeout, then every one still pending is lost.
        Thread.sleep(TIMEOUT / 1_000_000 + 500);
        churn.sweep(System.nanoTime() + TIMEOUT + 1);
        System.out.println("final " + churn.line((System.nanoTime() - start) / 1e9));
        System.out.flush();
        // The soak reads the kernel's drops at these sockets once the final line is out (a closed socket's
        // are gone): the last seconds' drops would otherwise be missed by its minute samples.
        Thread.sleep(3_000);
        for (int i = 0; i < SOCKETS; i++) {
            churn.gtp[i].close();
            churn.auth[i].close();
            churn.acct[i].close();
        }
    }

    interface Answer {
        void run(ByteBuffer b) throws IOException;
    }

    static void receiverOf(DatagramChannel channel, String name, Answer answer) {
        Thread t = new Thread(() -> {
            ByteBuffer b = ByteBuffer.allocate(4096);
            while (channel.isOpen()) {
                try {
                    b.clear();
                    channel.read(b);
                    b.flip();
                    answer.run(b);
                } catch (java.net.PortUnreachableException e) {
                    continue; // nothing listened for a moment: the request shows as lost
                } catch (IOException e) {
                    return; // closed at the end
                } catch (RuntimeException e) {
                    e.printStackTrace();
                }
            }
        }, "receiver-" + name);
        t.setDaemon(true);
        t.start();
    }
}
