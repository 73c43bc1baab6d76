package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.bytes;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.Director;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.sticky.StickyTableFactory;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the Dynamic Authorization tests share: a director node with an accounting virtual server
 * ({@code radius-acct}, learning sessions) and a DAE listener ({@code dae}) over one AAA farm; a NAS
 * stand-in at port 3799 of an address of its own; radclient as the NAS (accounting) and as the AAA
 * ({@code coa}, {@code disconnect}), each from the address it plays (its {@code Packet-Src-IP-Address}).
 */
final class DaeTestBed {

    static final String NAS_SECRET = "nas-to-director";
    static final String AAA_SECRET = "director-to-aaa";

    private DaeTestBed() {
    }

    /**
     * A director node: {@code radius-acct} and {@code dae} on {@code vip} (ephemeral ports), the farm
     * {@code aaa} of one real ({@code aaa}, its secret {@link #AAA_SECRET}), the NASes of {@code nases}/24
     * with {@link #NAS_SECRET} and the DAE port {@code daePort}.
     */
    static Director node(String vip, RadiusDirectorIT.Responder aaa, String nases, int daePort,
            StickyTableFactory sticky, NodeSlot slot, SharedTables shared) {
        InetAddress address = RadiusPluginTest.addr(vip);
        FarmConfig farm = new FarmConfig("aaa", PredictorKind.ROUNDROBIN, new FailureDetection(100_000, 1,
                Duration.ofMinutes(1)), List.of(aaa.real()), Optional.empty());
        RadiusOptions.Client nas = new RadiusOptions.Client(RadiusPluginTest.addr(nases), 24, NAS_SECRET);
        Map<String, VirtualServerConfig> servers = new LinkedHashMap<>();
        servers.put("radius-acct", new VirtualServerConfig("radius-acct", new Endpoint(address, 0), "radius", "aaa",
                Optional.empty(), Duration.ofSeconds(3), Duration.ofMinutes(1), 4096, true,
                new RadiusOptions(List.of(nas)).withDaeSessions(new RadiusOptions.DaeSessions(Duration.ofHours(1)))));
        servers.put("dae", new VirtualServerConfig("dae", new Endpoint(address, 0), "radius-dae", "aaa",
                Optional.empty(), Duration.ofSeconds(3), Duration.ofMinutes(1), 4096, true,
                new DaeOptions(List.of(new DaeOptions.Nas(nas, daePort)), "radius-acct")));
        return new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                Map.of("aaa", farm), servers),
                v -> v.service().equals("radius-dae") ? new RadiusDaeService() : new RadiusService(),
                new SimpleMeterRegistry(), Ticker.SYSTEM, sticky, slot, shared);
    }

    static DynamicAuthorization plugin(Director director) {
        return (DynamicAuthorization) director.virtualServers().get("dae").plugin();
    }

    /**
     * The NAS stand-in: its Dynamic Authorization Server on {@code address}:{@code port} (RFC 5176 §3:
     * 3799), answering each CoA-Request with a CoA-ACK and each Disconnect-Request with a
     * Disconnect-ACK, signed with its secret; records each request and whether it verified.
     */
    static final class NasStandIn implements AutoCloseable {
        record Received(byte[] request, boolean verified, InetSocketAddress from) {

            RadiusView view() {
                return RadiusPackets.view(Unpooled.wrappedBuffer(request));
            }

            String text(int type) {
                RadiusView v = view();
                int a = v.find(type);
                return a < 0 ? null : new String(v.value(a), StandardCharsets.UTF_8);
            }
        }

        final DatagramSocket socket;
        final List<Received> received = new CopyOnWriteArrayList<>();
        private final Thread thread;

        NasStandIn(String address, int port) throws IOException {
            socket = new DatagramSocket(new InetSocketAddress(address, port));
            thread = new Thread(this::serve, "nas-stand-in");
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try {
                    DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
                    socket.receive(in);
                    byte[] request = java.util.Arrays.copyOf(in.getData(), in.getLength());
                    ByteBuf buf = Unpooled.wrappedBuffer(request.clone());
                    RadiusView view = RadiusPackets.view(buf);
                    received.add(new Received(request, RadiusAuthenticators.verifyRequest(view, bytes(NAS_SECRET)),
                            (InetSocketAddress) in.getSocketAddress()));
                    RadiusCode ack = view.code() == RadiusCode.COA_REQUEST.value() ? RadiusCode.COA_ACK
                            : RadiusCode.DISCONNECT_ACK;
                    byte[] out = ByteBufUtil.getBytes(RadiusPackets.answer(ack, buf, NAS_SECRET, List.of()));
                    socket.send(new DatagramPacket(out, out.length, in.getSocketAddress()));
                } catch (IOException e) {
                    // closed
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            socket.close();
            thread.join(2000);
        }
    }

    /**
     * radclient ({@code acct}, {@code coa}, {@code disconnect}) with one request, sent from {@code from}
     * (radclient binds its {@code Packet-Src-IP-Address}) to {@code to}; one try, a one-second timeout.
     */
    static FreeRadiusProcess.Result radclient(Path work, String from, InetSocketAddress to, String type, String secret, String request)
            throws IOException, InterruptedException {
        Path file = Files.createTempFile(work, "request", ".txt");
        Files.writeString(file, "Packet-Src-IP-Address = " + from + "\n" + request + "\n");
        List<String> command = new ArrayList<>(List.of("radclient", "-x", "-t", "1", "-r", "1", "-f", file.toString(),
                to.getAddress().getHostAddress() + ":" + to.getPort(), type, secret));
        return FreeRadiusProcess.run(work, command, 30);
    }

    static String accounting(String status, String session, String user, String framedIp, String csid) {
        return "Acct-Status-Type = " + status + "\nAcct-Session-Id = \"" + session + "\"\nUser-Name = \"" + user
                + "\"\nFramed-IP-Address = " + framedIp + "\nCalling-Station-Id = \"" + csid + "\"";
    }
}
