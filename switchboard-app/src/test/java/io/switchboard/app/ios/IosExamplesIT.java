package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.app.Node;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.radius.RadiusModule;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.testing.LoopbackResponder;
import io.switchboard.director.testing.PcapFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The generic (TCP), Home Agent, ASN and RADIUS examples of src/test/resources/ios run as
 * {@code run -c} runs them, against stand-ins on loopback ({@link IosLoopback} substitutes 127.0.0.1
 * and ephemeral ports for the examples' addresses). GTP: {@code IosGtpExamplesIT}.
 */
class IosExamplesIT {

    private final List<AutoCloseable> peers = new ArrayList<>();
    private final List<String> arrivals = new CopyOnWriteArrayList<>();
    private final PcapFile capture = new PcapFile();
    private Node node;

    @AfterEach
    void stop() throws Exception {
        if (node != null) {
            node.close();
        }
        for (AutoCloseable p : peers) {
            p.close();
        }
    }

    // ---- generic: basic.ios ----------------------------------------------------------------------

    private interface Connection {
        void serve(Socket s) throws IOException;
    }

    /** A TCP server on 127.0.0.1 (ephemeral port) that hands each connection to {@code handler}, then closes it. */
    private InetSocketAddress tcpServer(String name, Connection handler) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        peers.add(server);
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    s.setSoTimeout(5000);
                    handler.serve(s);
                } catch (IOException e) {
                    // closed, or a client that went away
                }
            }
        }, "tcp-" + name);
        t.setDaemon(true);
        t.start();
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    /** A TCP server that writes its name to every connection and closes it. */
    private InetSocketAddress web(String name) throws IOException {
        return tcpServer(name, s -> s.getOutputStream().write(name.getBytes(StandardCharsets.US_ASCII)));
    }

    /** What the real behind the virtual server wrote; "" when the director closed the connection. */
    private String get(String vserver) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(node.director().localAddress(vserver), 5000);
            s.setSoTimeout(5000);
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (java.net.SocketException reset) {
            return "";
        }
    }

    @Test
    void basicExampleSpreadsEightConnectionsPerRealAndRefusesClientsOutsideTheRestrictedSubnet() throws Exception {
        InetSocketAddress a = web("a");
        InetSocketAddress b = web("b");
        InetSocketAddress c = web("c");
        node = IosLoopback.start("basic.ios", Optional.empty(), Map.of("10.1.1.1", a, "10.1.1.2", b, "10.1.1.3", c,
                "10.1.1.20", a, "10.1.1.21", b));

        // No weight line: IOS's default weight 8, so eight new connections per real in turn.
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < 24; i++) {
            order.append(get("PUBLIC_HTTP"));
        }
        assertThat(order).hasToString("aaaaaaaabbbbbbbbcccccccc");
        // client 10.4.4.0 255.255.255.0: a client at 127.0.0.1 is not let through.
        assertThat(get("RESTRICTED_HTTP")).isEmpty();
    }

    @Test
    void basicExampleReassignsRefusedConnectionsAndFailsTheRealAfterFourFromTwoClients() throws Exception {
        InetSocketAddress a = web("a");
        InetSocketAddress b = web("b");
        InetSocketAddress c = web("c");
        // B is gone: nothing listens on its port any more.
        peers.remove(peers.size() - 2).close();
        node = IosLoopback.start("basic.ios", Optional.empty(), Map.of("10.1.1.1", a, "10.1.1.2", b, "10.1.1.3", c,
                "10.1.1.20", a, "10.1.1.21", b));
        var realB = node.director().farms().real("PUBLIC", "127.0.0.1:" + b.getPort());

        // B's turns (weight 8, after A's eight): each connection B refuses is reassigned (reassign 2) and
        // served by the next real. faildetect numconns 4 numclients 2: B fails at its fourth refusal,
        // the refusals coming from clients at two addresses.
        List<String> served = new ArrayList<>();
        for (int i = 0; realB.state() != io.switchboard.director.real.RealState.FAILED && i < 200; i++) {
            served.add(get("PUBLIC_HTTP", i % 48 < 24 ? "127.0.0.1" : "127.0.0.2"));
        }
        assertThat(realB.state()).isEqualTo(io.switchboard.director.real.RealState.FAILED);
        assertThat(served).doesNotContain("b", "").contains("a", "c");
        assertThat(realB.unanswered()).isEqualTo(4);
        // retry 20: B gets nothing new for twenty seconds.
        assertThat(realB.retryNanos()).isEqualTo(Duration.ofSeconds(20).toNanos());
        for (int i = 0; i < 24; i++) {
            assertThat(get("PUBLIC_HTTP", "127.0.0.3")).isIn("a", "c");
        }
    }

    /** Like {@link #get(String)}, from a client bound to {@code from}. */
    private String get(String vserver, String from) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(from, 0));
            s.connect(node.director().localAddress(vserver), 5000);
            s.setSoTimeout(5000);
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        } catch (java.net.SocketException reset) {
            return "";
        }
    }

    // ---- probes and sticky groups: probes.ios ------------------------------------------------------

    /** An HTTP server: {@code /health} answers 200 while {@code healthy}, 500 otherwise; other paths its name. */
    private InetSocketAddress http(String name, java.util.concurrent.atomic.AtomicBoolean healthy) throws IOException {
        return tcpServer(name, s -> {
            var in = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(),
                    StandardCharsets.US_ASCII));
            String request = in.readLine();
            for (String header = in.readLine(); header != null && !header.isEmpty(); header = in.readLine()) {
                // headers: the probe's Host is not checked here
            }
            boolean health = request != null && request.startsWith("GET /health ");
            int status = !health || healthy.get() ? 200 : 500;
            String body = health ? "" : name;
            s.getOutputStream().write(("HTTP/1.1 " + status + " X\r\nContent-Length: " + body.length()
                    + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
        });
    }

    /** GET / through a virtual server from {@code from}; the body. */
    private String httpGet(String vserver, String from) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(from, 0));
            s.connect(node.director().localAddress(vserver), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            return answer.substring(answer.indexOf("\r\n\r\n") + 4);
        }
    }

    @Test
    void probesExampleSharesASubnetStickyGroupAcrossHttpAndHttpsAndTakesOutARealFailingItsHttpProbe()
            throws Exception {
        var heavyHealthy = new java.util.concurrent.atomic.AtomicBoolean(true);
        InetSocketAddress heavy = http("heavy", heavyHealthy);
        InetSocketAddress light = http("light", new java.util.concurrent.atomic.AtomicBoolean(true));
        node = IosLoopback.start("probes.ios", Optional.empty(), Map.of("10.1.1.10", heavy, "10.1.1.11", light,
                "10.1.1.12", light, "10.20.10.1", new InetSocketAddress("127.0.0.1", 9))); // GGSN farm: unused here

        // sticky 60 group 7 netmask 255.255.255.0 on WEB and WEB_TLS: clients of one /24 share a real
        // across both virtual servers; weights 3/1 give the first subnets to "heavy".
        String first = httpGet("WEB", "127.0.0.5");
        assertThat(httpGet("WEB_TLS", "127.0.0.9")).isEqualTo(first);
        assertThat(httpGet("WEB", "127.0.0.77")).isEqualTo(first);
        assertThat(first).isEqualTo("heavy");

        // probe WEB_HTTP (interval 2, faildetect 2): heavy's /health fails, heavy leaves the farm.
        heavyHealthy.set(false);
        var real = node.director().farms().real("WEB", "127.0.0.1:" + heavy.getPort());
        await().atMost(Duration.ofSeconds(15)).until(() -> real.state() == io.switchboard.director.real.RealState.PROBE_FAILED);
        assertThat(httpGet("WEB", "127.0.0.5")).isEqualTo("light");
        assertThat(httpGet("WEB_TLS", "127.0.3.5")).isEqualTo("light");
    }

    /** A UDP real that records each datagram and answers nothing (generic UDP forwards and relays). */
    private final class Echo extends LoopbackResponder {
        Echo(String name) throws IOException {
            super(name, capture, arrivals);
            start();
        }

        @Override
        protected byte[] answer(byte[] request, InetSocketAddress sender) {
            return request;
        }
    }

    @Test
    void aStickyBindingLastsItsDurationAfterTheClientsLastDatagram() throws Exception {
        Echo one = peer(new Echo("one"));
        Echo two = peer(new Echo("two"));
        node = IosLoopback.startText("""
                ip slb serverfarm DNS
                 real 10.1.1.1
                  weight 1
                  inservice
                 real 10.1.1.2
                  weight 1
                  inservice
                ip slb vserver DNS
                 virtual 10.0.0.53 udp 53
                 serverfarm DNS
                 sticky 1
                 idle 1
                 inservice
                """, Optional.empty(), Map.of("10.1.1.1", one.address(), "10.1.1.2", two.address()));
        InetSocketAddress vip = node.director().localAddress("DNS");
        var table = node.director().virtualServers().get("DNS").selector().sticky();
        StickyKey client = StickyKey.parse(StickyKind.CLIENT_ADDRESS, "127.0.0.1");

        // sticky 1: within the second, the client stays on its real whatever round robin's turn.
        for (int i = 0; i < 3; i++) {
            assertThat(ask(vip, new byte[] {1, 2, (byte) i})).isNotNull();
        }
        assertThat(arrivals).containsExactly("one", "one", "one");
        // A second after its last datagram the binding is gone (swept as the director's housekeeping
        // sweeps; a lookup would refresh it), and round robin gives the next real.
        assertThat(table.lookup(client, System.nanoTime())).isNotNull();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            table.expire(System.nanoTime());
            return table.size() == 0;
        });
        assertThat(ask(vip, new byte[] {9})).isNotNull();
        assertThat(arrivals).containsExactly("one", "one", "one", "two");
    }

    // ---- Home Agent Director: home-agent.ios -------------------------------------------------------

    /** A home agent that accepts every Registration Request (RFC 5944 §3.4, code 0). */
    private final class HomeAgent extends LoopbackResponder {
        HomeAgent(String name) throws IOException {
            super(name, capture, arrivals);
            start();
        }

        @Override
        protected byte[] answer(byte[] rrq, InetSocketAddress sender) {
            ByteBuffer in = ByteBuffer.wrap(rrq);
            return ByteBuffer.allocate(20).put((byte) 3).put((byte) 0).putShort(in.getShort(2)).putInt(in.getInt(4))
                    .putInt(in.getInt(8)).putLong(in.getLong(16)).array();
        }
    }

    private <T extends AutoCloseable> T peer(T p) {
        peers.add(p);
        return p;
    }

    private static byte[] ask(InetSocketAddress to, byte[] request) throws IOException {
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            client.setSoTimeout(5000);
            client.send(new DatagramPacket(request, request.length, to));
            DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
            try {
                client.receive(in);
            } catch (SocketTimeoutException e) {
                return null;
            }
            return Arrays.copyOf(in.getData(), in.getLength());
        }
    }

    @Test
    void homeAgentExampleSpreadsRegistrationsTwoToOneWithoutStickiness() throws Exception {
        HomeAgent one = peer(new HomeAgent("ha-1"));
        HomeAgent two = peer(new HomeAgent("ha-2"));
        node = IosLoopback.start("home-agent.ios", Optional.empty(), Map.of("10.0.0.1", one.address(),
                "10.0.0.2", two.address()));

        // The same mobile node (home address 10.99.0.1) registers six times: weights 2 / 1, no sticky.
        for (long id = 1; id <= 6; id++) {
            byte[] rrq = ByteBuffer.allocate(24).put((byte) 1).put((byte) 0).putShort((short) 1800)
                    .putInt(0x0a630001).putInt(0x7f000001).putInt(0xc0000201).putLong(id).array();
            byte[] rrp = ask(node.director().localAddress("HA_SERVER"), rrq);
            assertThat(rrp).isNotNull();
            assertThat(ByteBuffer.wrap(rrp).getLong(12)).isEqualTo(id);
        }
        assertThat(arrivals).containsExactly("ha-1", "ha-1", "ha-2", "ha-1", "ha-1", "ha-2");
    }

    // ---- ASN: asn.ios ------------------------------------------------------------------------------

    /** An ASN gateway that records pre-attachment requests and answers the base station itself (IOS). */
    private final class Gateway extends LoopbackResponder {
        final List<String> msids = new CopyOnWriteArrayList<>();

        Gateway(String name) throws IOException {
            super(name, capture, arrivals);
            start();
        }

        @Override
        protected byte[] answer(byte[] request, InetSocketAddress sender) {
            msids.add(HexFormat.of().formatHex(request, 6, 12));
            return null;
        }
    }

    /** MS_PreAttachment_Req (function type 9, NWG R1.0 v1.2.x message type 1) for {@code msid}. */
    private static byte[] preAttachment(String msid) {
        return HexFormat.of().parseHex("01000921" + "002c" + msid + "00000000" + "0101" + "0000"
                + "00670006fff000020102" + "001a000a0019000600e0fc123456");
    }

    private void send(InetSocketAddress to, byte[] datagram) throws IOException {
        try (DatagramSocket bs = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            bs.send(new DatagramPacket(datagram, datagram.length, to));
        }
    }

    @Test
    void asnExampleKeepsEachMsidOnItsGateway() throws Exception {
        Gateway g1 = peer(new Gateway("gw-1"));
        Gateway g2 = peer(new Gateway("gw-2"));
        node = IosLoopback.start("asn.ios", Optional.empty(), Map.of("10.20.1.1", g1.address(), "10.20.1.2",
                g2.address()));
        InetSocketAddress vip = node.director().localAddress("ASN_SERVER");

        // weight 1 / 1: new MSIDs alternate; sticky asn msid: a known MSID returns to its gateway.
        String m1 = "0a0000000001";
        String m2 = "0a0000000002";
        String m3 = "0a0000000003";
        for (String msid : List.of(m1, m2, m3, m2, m1)) {
            int before = arrivals.size();
            send(vip, preAttachment(msid));
            await().atMost(Duration.ofSeconds(5)).until(() -> arrivals.size() == before + 1);
        }
        assertThat(g1.msids).containsExactly(m1, m3, m1);
        assertThat(g2.msids).containsExactly(m2, m2);
    }

    // ---- RADIUS: radius.ios ------------------------------------------------------------------------

    private static final byte[] SECRET = IosExamplesTest.SECRET.getBytes(StandardCharsets.UTF_8);

    /** A RADIUS server answering every Accounting-Request with an Accounting-Response (RFC 2866 §4.2). */
    private final class Accounting extends LoopbackResponder {
        final List<String> framedIps = new CopyOnWriteArrayList<>();

        Accounting(String name) throws IOException {
            super(name, capture, arrivals);
            start();
        }

        @Override
        protected byte[] answer(byte[] request, InetSocketAddress sender) {
            framedIps.add(framedIp(request));
            byte[] response = new byte[20];
            response[0] = 5;
            response[1] = request[1];
            response[3] = 20;
            byte[] requestAuthenticator = Arrays.copyOfRange(request, 4, 20);
            return signed(response, view -> RadiusAuthenticators.signResponse(view, requestAuthenticator, SECRET));
        }
    }

    private interface Signer {
        void sign(RadiusView view);
    }

    private static byte[] signed(byte[] packet, Signer signer) {
        ByteBuf buf = Unpooled.wrappedBuffer(packet);
        try {
            signer.sign(RadiusView.wrap(buf));
        } catch (io.switchboard.codec.DecodeException e) {
            throw new IllegalArgumentException(e);
        }
        return packet;
    }

    /** The Framed-IP-Address (RFC 2865 §5.8, type 8) of a request, dotted. */
    private static String framedIp(byte[] packet) {
        for (int i = 20; i + 1 < packet.length; i += packet[i + 1] & 0xff) {
            if (packet[i] == 8) {
                return (packet[i + 2] & 0xff) + "." + (packet[i + 3] & 0xff) + "." + (packet[i + 4] & 0xff) + "."
                        + (packet[i + 5] & 0xff);
            }
        }
        return "";
    }

    /** Accounting-Request (RFC 2866 §4.1): Acct-Status-Type, Framed-IP-Address, Acct-Session-Id. */
    private static byte[] accounting(int id, int status, int[] framedIp, String session) {
        byte[] sid = session.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(20 + 6 + 6 + 2 + sid.length);
        b.put((byte) 4).put((byte) id).putShort((short) b.capacity()).put(new byte[16]);
        b.put((byte) 40).put((byte) 6).putInt(status);
        b.put((byte) 8).put((byte) 6);
        for (int octet : framedIp) {
            b.put((byte) octet);
        }
        b.put((byte) 44).put((byte) (2 + sid.length)).put(sid);
        return signed(b.array(), view -> RadiusAuthenticators.signRequest(view, SECRET));
    }

    @Test
    void radiusExampleLearnsFramedIpsFromAccountingStartAndPurgesThemOnStop() throws Exception {
        Accounting one = peer(new Accounting("ssg-1"));
        Accounting two = peer(new Accounting("ssg-2"));
        node = IosLoopback.start("radius.ios", Optional.of(IosExamplesTest.SECRET), Map.of("10.10.10.1",
                one.address(), "10.10.10.2", two.address()));
        InetSocketAddress acct = node.director().localAddress("RADIUS_ACCT");
        var table = node.director().virtualServers().get("RADIUS_ACCT").selector().sticky();
        // sticky radius framed-ip group 1 on both virtual servers: one table.
        assertThat(node.director().virtualServers().get("RADIUS_AUTH").selector().sticky()).isSameAs(table);
        StickyKey subscriber = StickyKey.parse(RadiusModule.FRAMED_IP, "10.200.0.7");

        byte[] start = accounting(1, 1, new int[] {10, 200, 0, 7}, "s-1");
        assertThat(ask(acct, start)).as("Accounting-Response to the Start").isNotNull();
        StickyBinding bound = table.lookup(subscriber, System.nanoTime());
        assertThat(bound).as("framed-ip binding learned from the Start").isNotNull();
        String first = arrivals.get(arrivals.size() - 1);

        // Interim-Update for the same Framed-IP: the same gateway, whatever round robin would pick.
        assertThat(ask(acct, accounting(2, 3, new int[] {10, 200, 0, 7}, "s-1"))).isNotNull();
        assertThat(arrivals.get(arrivals.size() - 1)).isEqualTo(first);

        // purge radius framed-ip acct stop: the Stop's acknowledgement removes the binding.
        assertThat(ask(acct, accounting(3, 2, new int[] {10, 200, 0, 7}, "s-1"))).isNotNull();
        assertThat(arrivals.get(arrivals.size() - 1)).isEqualTo(first);
        await().atMost(Duration.ofSeconds(5)).until(() -> table.lookup(subscriber, System.nanoTime()) == null);
        assertThat(one.framedIps.size() + two.framedIps.size()).isEqualTo(3);
    }
}
