package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.bytes;
import static io.switchboard.director.radius.RadiusPackets.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.nio.charset.StandardCharsets;
import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttribute;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The director with small RADIUS responders of our own that can hold their answers: identifier
 * exhaustion toward one real (sockets opened on demand, up to the bound, and closed again),
 * retransmissions, late duplicate answers, Accounting-On sent to every real. One event loop, so that
 * every request of a test meets the same upstream sockets.
 */
class RadiusDirectorIT {

    static final String CLIENT_SECRET = "client";
    static final String REAL_SECRET = "real";
    static final DropReason IDS_EXHAUSTED = DropReason.of("ids-exhausted");

    /**
     * Answers an Access-Request with an Access-Accept whose Reply-Message is the request's User-Name,
     * and an Accounting-Request with an Accounting-Response, signed with its secret; can hold answers.
     * Records each request's (source port / identifier) and whether it verified with its secret.
     */
    static final class Responder implements AutoCloseable {
        final DatagramSocket socket;
        final String secret;
        final List<String> transactions = new CopyOnWriteArrayList<>();
        final List<Integer> statusTypes = new CopyOnWriteArrayList<>();
        final List<Boolean> verified = new CopyOnWriteArrayList<>();
        final List<DatagramPacket> held = new CopyOnWriteArrayList<>();
        volatile boolean hold;
        private final Thread thread;

        Responder() throws IOException {
            this("127.0.0.1", REAL_SECRET);
        }

        Responder(String address, String secret) throws IOException {
            this.secret = secret;
            socket = new DatagramSocket(new InetSocketAddress(address, 0));
            socket.setReceiveBufferSize(8 << 20);
            thread = new Thread(this::serve, "radius-responder");
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try {
                    DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
                    socket.receive(in);
                    ByteBuf request = Unpooled.wrappedBuffer(in.getData(), 0, in.getLength());
                    RadiusView view = RadiusPackets.view(request);
                    ByteBuf answer;
                    if (view.code() == RadiusCode.ACCOUNTING_REQUEST.value()) {
                        verified.add(RadiusAuthenticators.verifyRequest(view, bytes(secret)));
                        statusTypes.add((int) view.acctStatusType());
                        answer = RadiusPackets.answer(RadiusCode.ACCOUNTING_RESPONSE, request, secret, List.of());
                    } else {
                        int user = view.find(RadiusAttributeType.USER_NAME.value());
                        answer = RadiusPackets.answer(RadiusCode.ACCESS_ACCEPT, request, secret, List.of(text(
                                RadiusAttributeType.REPLY_MESSAGE, new String(view.value(user), StandardCharsets.UTF_8))));
                    }
                    transactions.add(in.getPort() + "/" + view.identifier());
                    byte[] out = ByteBufUtil.getBytes(answer);
                    DatagramPacket reply = new DatagramPacket(out, out.length, in.getSocketAddress());
                    if (hold) {
                        held.add(reply);
                    } else {
                        socket.send(reply);
                    }
                } catch (IOException e) {
                    // closed
                }
            }
        }

        void release() throws IOException {
            release(0, held.size());
        }

        RealConfig real() {
            return new RealConfig(socket.getLocalAddress(), socket.getLocalPort(), 1, OptionalInt.empty(), true)
                    .with(RadiusModule.SECRET, secret);
        }

        void release(int from, int to) throws IOException {
            for (DatagramPacket p : held.subList(from, to)) {
                socket.send(p);
            }
        }

        @Override
        public void close() throws InterruptedException {
            socket.close();
            thread.join(2000);
        }
    }

    private Responder responder;
    private Vertx vertx;
    private Director director;
    private InetSocketAddress vip;

    private Responder second;

    @BeforeEach
    void start() throws Exception {
        responder = new Responder();
    }

    private static RadiusOptions options() throws IOException {
        return new RadiusOptions(List.of(new RadiusOptions.Client(InetAddress.getByName("127.0.0.1"), 32,
                CLIENT_SECRET)));
    }

    private void startDirector(RadiusOptions options, Duration responseTimeout, Responder... reals) throws Exception {
        FarmConfig farm = new FarmConfig("aaa", PredictorKind.ROUNDROBIN, new FailureDetection(100_000, 1,
                Duration.ofMinutes(1)), java.util.Arrays.stream(reals).map(Responder::real).toList(), Optional.empty());
        VirtualServerConfig vs = new VirtualServerConfig("radius", new Endpoint(InetAddress.getByName("127.0.0.1"), 0),
                "radius", "aaa",
                Optional.of(new StickyConfig(List.of(RadiusModule.USERNAME), Duration.ofMinutes(5), OptionalInt.empty(),
                        100_000)),
                responseTimeout, Duration.ofMinutes(1), 4096, true, options);
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                Map.of("aaa", farm), Map.of("radius", vs)), v -> new RadiusService(), new SimpleMeterRegistry(),
                Ticker.SYSTEM);
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vip = director.localAddress("radius");
    }

    @AfterEach
    void stop() throws Exception {
        if (director != null) {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        responder.close();
        if (second != null) {
            second.close();
        }
    }

    private VirtualServerMetrics metrics() {
        return director.virtualServers().get("radius").metrics();
    }

    private static void send(DatagramSocket socket, ByteBuf packet, InetSocketAddress to) throws IOException {
        byte[] bytes = ByteBufUtil.getBytes(packet);
        socket.send(new DatagramPacket(bytes, bytes.length, to));
    }

    private static byte[] receive(DatagramSocket socket, int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            socket.receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return java.util.Arrays.copyOf(in.getData(), in.getLength());
    }

    /** Sends {@code requests[i]} on {@code nas[i % nas.length]}, letting the director keep up. */
    private void sendAll(DatagramSocket[] nas, ByteBuf[] requests) throws IOException {
        for (int i = 0; i < requests.length; i++) {
            send(nas[i % nas.length], requests[i], vip);
            if (i % 200 == 199) {
                // Loopback drops what overflows a receive buffer.
                int sent = i + 1;
                await().atMost(Duration.ofSeconds(10)).until(() -> metrics().receivedCount() >= sent);
            }
        }
    }

    private static DatagramSocket[] nasSockets(int count) throws IOException {
        DatagramSocket[] nas = new DatagramSocket[count];
        for (int i = 0; i < count; i++) {
            nas[i] = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
            nas[i].setReceiveBufferSize(1 << 20);
        }
        return nas;
    }

    @Test
    void twoThousandOutstandingRequestsToOneRealOpenSocketsOnDemandWithoutCollisionAndCloseThemAfter()
            throws Exception {
        startDirector(options(), Duration.ofSeconds(6), responder);
        assertThat(metrics().upstreamSocketsOpen()).isEqualTo(1);
        responder.hold = true;
        int perNas = 250;
        DatagramSocket[] nas = nasSockets(8);
        int total = perNas * nas.length;
        try {
            // Request i: NAS i % 8, identifier i / 8: each (NAS, identifier) once.
            ByteBuf[] requests = new ByteBuf[total];
            byte[][] authenticators = new byte[total][];
            for (int i = 0; i < total; i++) {
                requests[i] = accessRequest(i / nas.length, CLIENT_SECRET, "user" + i, "pw", List.of());
                authenticators[i] = RadiusPackets.view(requests[i]).authenticator();
            }
            sendAll(nas, requests);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(metrics().forwardedCount()).isEqualTo(total);
                assertThat(responder.transactions).hasSize(total);
            });
            // Every outstanding request has its own (director socket, identifier), on sockets opened
            // as the 256 identifiers of the ones before ran out: 2000 / 256 -> 8.
            assertThat(new HashSet<>(responder.transactions)).hasSize(total);
            Set<String> ports = new HashSet<>();
            responder.transactions.forEach(t -> ports.add(t.substring(0, t.indexOf('/'))));
            assertThat(ports).hasSize(8);
            assertThat(metrics().upstreamSocketsOpen()).isEqualTo(8);
            assertThat(metrics().upstreamSocketsOpenedCount()).isEqualTo(7);

            // Each answer reaches its NAS with the request's identifier, signed for its authenticator,
            // carrying its own user's Reply-Message; released in chunks so that no buffer overflows.
            int received = 0;
            for (int chunk = 0; chunk < total; chunk += 200) {
                responder.release(chunk, Math.min(total, chunk + 200));
                int expected = Math.min(total, chunk + 200);
                while (received < expected) {
                    boolean any = false;
                    for (int n = 0; n < nas.length && received < expected; n++) {
                        byte[] answer = receive(nas[n], 50);
                        if (answer == null) {
                            continue;
                        }
                        any = true;
                        RadiusView view = RadiusPackets.view(Unpooled.wrappedBuffer(answer));
                        int request = view.identifier() * nas.length + n;
                        assertThat(request).isLessThan(total);
                        assertThat(RadiusAuthenticators.verifyResponse(view, authenticators[request],
                                bytes(CLIENT_SECRET))).as("answer to request %d verifies", request).isTrue();
                        int reply = view.find(RadiusAttributeType.REPLY_MESSAGE.value());
                        assertThat(new String(view.value(reply), StandardCharsets.UTF_8)).isEqualTo("user" + request);
                        received++;
                    }
                    assertThat(any).as("answers after %d of %d", received, total).isTrue();
                }
            }
            assertThat(received).isEqualTo(total);
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().relayedCount() == total);
            assertThat(metrics().droppedCount(IDS_EXHAUSTED)).isZero();

            // Nothing pending, and a whole response timeout in which one socket would do: the others close.
            await().atMost(Duration.ofSeconds(30)).until(() -> metrics().upstreamSocketsOpen() == 1);
            responder.hold = false;
            send(nas[0], accessRequest(7, CLIENT_SECRET, "after", "pw", List.of()), vip);
            assertThat(receive(nas[0], 5000)).isNotNull();
        } finally {
            for (DatagramSocket socket : nas) {
                socket.close();
            }
        }
    }

    @Test
    void beyondTheBoundOfSocketsRequestsAreDroppedAsIdsExhausted() throws Exception {
        startDirector(options().withUpstreamSockets(2), Duration.ofSeconds(20), responder);
        responder.hold = true;
        int capacity = 2 * 256;
        DatagramSocket[] nas = nasSockets(3);
        try {
            ByteBuf[] requests = new ByteBuf[capacity + 40];
            for (int i = 0; i < requests.length; i++) {
                requests[i] = accessRequest(i / nas.length, CLIENT_SECRET, "user" + i, "pw", List.of());
            }
            sendAll(nas, requests);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(metrics().receivedCount()).isEqualTo(capacity + 40);
                assertThat(metrics().forwardedCount()).isEqualTo(capacity);
                assertThat(metrics().droppedCount(IDS_EXHAUSTED)).isEqualTo(40);
                assertThat(responder.transactions).hasSize(capacity);
            });
            assertThat(new HashSet<>(responder.transactions)).hasSize(capacity);
            assertThat(metrics().upstreamSocketsOpen()).isEqualTo(2);
            // Answers free identifiers: new requests go out again.
            responder.release();
            await().atMost(Duration.ofSeconds(10)).until(() -> metrics().relayedCount() == capacity);
            responder.hold = false;
            send(nas[0], accessRequest(200, CLIENT_SECRET, "again", "pw", List.of()), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().relayedCount() == capacity + 1);
        } finally {
            for (DatagramSocket socket : nas) {
                socket.close();
            }
        }
    }

    @Test
    void accountingOnGoesToEveryRealSignedForEachAndTheClientGetsOneAnswer() throws Exception {
        second = new Responder("127.0.2.1", "second-secret");
        startDirector(options(), Duration.ofSeconds(20), responder, second);
        try (DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            ByteBuf on = RadiusPackets.accountingRequest(42, CLIENT_SECRET, List.of(
                    RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.ACCOUNTING_ON),
                    text(RadiusAttributeType.ACCT_SESSION_ID, "on-1")));
            byte[] authenticator = RadiusPackets.view(on).authenticator();
            send(nas, on, vip);
            byte[] answer = receive(nas, 5000);
            assertThat(answer).isNotNull();
            RadiusView view = RadiusPackets.view(Unpooled.wrappedBuffer(answer));
            assertThat(view.code()).isEqualTo(RadiusCode.ACCOUNTING_RESPONSE.value());
            assertThat(view.identifier()).isEqualTo(42);
            assertThat(RadiusAuthenticators.verifyResponse(view, authenticator, bytes(CLIENT_SECRET))).isTrue();
            // Both reals got it, each signed with its own secret; the second answer is absorbed.
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().absorbedCount() == 1);
            assertThat(responder.statusTypes).containsExactly((int) RadiusAcctStatusType.ACCOUNTING_ON);
            assertThat(second.statusTypes).containsExactly((int) RadiusAcctStatusType.ACCOUNTING_ON);
            assertThat(responder.verified).containsExactly(true);
            assertThat(second.verified).containsExactly(true);
            assertThat(receive(nas, 300)).isNull();
            assertThat(metrics().forwardedCount()).isEqualTo(1);
            assertThat(metrics().relayedCount()).isEqualTo(1);

            // An Accounting-Start still goes to one real.
            send(nas, RadiusPackets.accountingRequest(43, CLIENT_SECRET, List.of(
                    RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START),
                    text(RadiusAttributeType.USER_NAME, "bob"))), vip);
            assertThat(receive(nas, 5000)).isNotNull();
            assertThat(responder.statusTypes.size() + second.statusTypes.size()).isEqualTo(3);
        }
    }

    @Test
    void aRetransmittedAccountingOffGoesAgainToTheRealsThatHaveNotAnswered() throws Exception {
        second = new Responder("127.0.2.1", "second-secret");
        startDirector(options(), Duration.ofSeconds(20), responder, second);
        second.hold = true;
        try (DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            ByteBuf off = RadiusPackets.accountingRequest(9, CLIENT_SECRET, List.of(
                    RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.ACCOUNTING_OFF)));
            send(nas, off, vip);
            assertThat(receive(nas, 5000)).as("the first real's answer").isNotNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> second.transactions.size() == 1);
            send(nas, off, vip); // the NAS lost the answer and retransmits
            await().atMost(Duration.ofSeconds(5)).until(() -> second.transactions.size() == 2);
            assertThat(second.transactions.get(1)).isEqualTo(second.transactions.get(0));
            assertThat(responder.transactions).hasSize(1);
            assertThat(metrics().retransmittedCount()).isEqualTo(1);
            second.release(); // two answers to the same identifier: one relayed, the other late
            byte[] answer = receive(nas, 5000);
            assertThat(answer).isNotNull();
            assertThat(RadiusAuthenticators.verifyResponse(RadiusPackets.view(Unpooled.wrappedBuffer(answer)),
                    RadiusPackets.view(off).authenticator(), bytes(CLIENT_SECRET))).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().unmatchedCount("late") == 1);
            assertThat(receive(nas, 300)).isNull();
        }
    }

    @Test
    void aRetransmissionGoesOutWithTheSameIdentifierAndALateDuplicateAnswerIsDropped() throws Exception {
        startDirector(options(), Duration.ofSeconds(20), responder);
        responder.hold = true;
        try (DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            ByteBuf request = accessRequest(99, CLIENT_SECRET, "alice", "pw", List.of());
            byte[] authenticator = RadiusPackets.view(request).authenticator();
            send(nas, request, vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> responder.transactions.size() == 1);
            send(nas, request, vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> responder.transactions.size() == 2);
            assertThat(responder.transactions.get(1)).isEqualTo(responder.transactions.get(0));
            assertThat(metrics().retransmittedCount()).isEqualTo(1);
            assertThat(metrics().forwardedCount()).isEqualTo(1);

            responder.release(); // two answers: the first is relayed, the second is late
            byte[] answer = receive(nas, 5000);
            assertThat(answer).isNotNull();
            RadiusView view = RadiusPackets.view(Unpooled.wrappedBuffer(answer));
            assertThat(view.identifier()).isEqualTo(99);
            assertThat(RadiusAuthenticators.verifyResponse(view, authenticator, bytes(CLIENT_SECRET))).isTrue();
            assertThat(receive(nas, 300)).isNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().unmatchedCount("late") == 1);
        }
    }
}
