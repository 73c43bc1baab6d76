package io.switchboard.bench.radius;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.DefaultRadiusPacket;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.RealSelector;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.radius.RadiusModule;
import io.switchboard.director.radius.RadiusOptions;
import io.switchboard.director.radius.RadiusService;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.TransactionPlugin;
import io.switchboard.director.transaction.ClientSide;
import io.switchboard.director.transaction.EngineEvents;
import io.switchboard.director.transaction.EngineScope;
import io.switchboard.director.transaction.Intake;
import io.switchboard.director.transaction.RealSide;
import io.switchboard.director.transaction.TransactionEngine;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.slf4j.helpers.NOPLogger;

/**
 * The RADIUS director's whole per-request path on one event loop, without sockets: a client's
 * Access-Request (User-Name, User-Password, Calling-Station-Id, Message-Authenticator, as the
 * benchmark's template) admitted, re-signed and forwarded by the real {@link Intake} and
 * {@link TransactionEngine} of a radius virtual server, then the real's Access-Accept verified,
 * re-signed and relayed to the client — what `benchmarks/radius/run.sh` costs the director per
 * request, less the system calls. Each datagram arrives as recvmmsg delivers it: a slice exactly as
 * long as the datagram of a larger pooled direct buffer. Use {@code -prof gc} for the bytes each
 * request allocates, which the machine's other load does not disturb.
 *
 * <ul>
 *   <li>{@code duplicates}: the RFC 5080 response cache on (its default size) or off;</li>
 *   <li>{@code realSigns}: the real's answer already carries a Message-Authenticator, first (as
 *       FreeRADIUS 3.2.5 sends it), or none (as the benchmark's responders: the director inserts
 *       one);</li>
 * </ul>
 * and {@code realAnswerOnly}, the baseline: what this benchmark itself spends per request (copying
 * the request in, the real's signed answer), to subtract.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RadiusPathBenchmark {

    private static final byte[] CLIENT_SECRET = "client-secret".getBytes(StandardCharsets.UTF_8);
    private static final byte[] REAL_SECRET = "real-secret".getBytes(StandardCharsets.UTF_8);
    /** Distinct requests cycled through; with 2 ms of clock per request, older than the cache time when seen again. */
    private static final int REQUESTS = 4096;
    private static final long NANOS_PER_REQUEST = 2_000_000;

    @Param({"true", "false"})
    public boolean duplicates;

    @Param({"false", "true"})
    public boolean realSigns;

    /** Netty 4.2's default, the adaptive allocator, which the director's sockets read into. */
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
    private final InetSocketAddress nas = new InetSocketAddress(address("127.0.0.20"), 40000);
    private byte[][] requests;
    private long now = 1_000_000_000L;
    private int next;
    private Intake intake;
    private TransactionEngine engine;
    private Sides sides;

    /** Where the engine's datagrams go: the last request to a real is kept for its answer; the rest is let go. */
    private static final class Sides implements RealSide, ClientSide {
        Blackhole hole;
        RealServer real;
        int socket;
        int identifier;
        final byte[] authenticator = new byte[16];

        @Override
        public void open(int index) {
        }

        @Override
        public void close(int index) {
        }

        @Override
        public void toReal(ByteBuf datagram, RealServer real, int socket, long transactionId, InetSocketAddress client) {
            this.real = real;
            this.socket = socket;
            this.identifier = datagram.getUnsignedByte(datagram.readerIndex() + 1);
            datagram.getBytes(datagram.readerIndex() + RadiusView.AUTHENTICATOR_OFFSET, authenticator);
            datagram.release();
        }

        @Override
        public void toClient(ByteBuf datagram, InetSocketAddress to) {
            hole.consume(datagram.getByte(datagram.readerIndex()));
            datagram.release();
        }
    }

    @Setup
    public void setUp(Blackhole hole) throws Exception {
        RealConfig rc = new RealConfig(address("127.0.0.2"), 1812, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, new String(REAL_SECRET, StandardCharsets.UTF_8));
        Farms farms = new Farms(Map.of("aaa", new FarmConfig("aaa", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                List.of(rc), Optional.empty())));
        RadiusOptions options = new RadiusOptions(List.of(new RadiusOptions.Client(address("127.0.0.0"), 8,
                new String(CLIENT_SECRET, StandardCharsets.UTF_8))));
        if (!duplicates) {
            options = options.withDuplicates(new RadiusOptions.Duplicates(Duration.ofSeconds(5), 0));
        }
        VirtualServerConfig vs = new VirtualServerConfig("radius-auth", new Endpoint(address("127.0.0.10"), 1812),
                "radius", "aaa", Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
        TransactionPlugin<?> plugin = (TransactionPlugin<?>) new RadiusService().create(vs);
        plugin.attach(new PluginContext(vs, null, farms, () -> now, new SimpleMeterRegistry(), NodeSlot.SINGLE,
                SharedTables.IN_MEMORY));
        VirtualServer server = new VirtualServer(vs, plugin, new RealSelector(farms, farms.farm("aaa"), null),
                new VirtualServerMetrics(new SimpleMeterRegistry(), vs.name(), vs.service()), null);
        EngineScope scope = new EngineScope(server, () -> now,
                new RateLimitedLog(NOPLogger.NOP_LOGGER, Duration.ofSeconds(10), () -> now), EngineEvents.NONE);
        sides = new Sides();
        sides.hole = hole;
        intake = new Intake(scope);
        engine = new TransactionEngine(scope, plugin, farms, sides, sides);
        engine.start();
        requests = new byte[REQUESTS][];
        Random random = new Random(20);
        for (int i = 0; i < REQUESTS; i++) {
            requests[i] = accessRequest(i, random);
        }
    }

    @TearDown
    public void tearDown() {
        engine.close();
    }

    /** One request through the director and its answer back. */
    @Benchmark
    public void requestAndAnswer() throws DecodeException {
        now += NANOS_PER_REQUEST;
        ByteBuf request = received(requests[next]);
        next = (next + 1) % REQUESTS;
        try {
            Decision.Direct decision = intake.admit(request, nas, alloc, sides);
            if (decision == null) {
                throw new IllegalStateException("request not admitted");
            }
            engine.request(request, nas, decision, now);
        } finally {
            request.release();
        }
        ByteBuf answer = realAnswer(sides.identifier, sides.authenticator);
        try {
            engine.answer(answer, sides.real.address(), sides.socket);
        } finally {
            answer.release();
        }
    }

    /** Baseline: what {@link #requestAndAnswer} spends outside the director (the request read in, the real's answer). */
    @Benchmark
    public void realAnswerOnly(Blackhole hole) throws DecodeException {
        now += NANOS_PER_REQUEST;
        ByteBuf request = received(requests[next]);
        next = (next + 1) % REQUESTS;
        hole.consume(request.getByte(1));
        request.release();
        ByteBuf answer = realAnswer(next & 0xff, sides.authenticator);
        hole.consume(answer.getByte(1));
        answer.release();
    }

    /** A datagram as recvmmsg delivers it: a slice, exactly as long, of a pooled buffer with room for the largest. */
    private ByteBuf received(byte[] datagram) {
        ByteBuf batch = alloc.directBuffer(4097);
        batch.writeBytes(datagram);
        ByteBuf slice = batch.retainedSlice(0, datagram.length);
        batch.release();
        return slice;
    }

    /** The real's Access-Accept (no attributes, or only a Message-Authenticator), signed with its secret. */
    private ByteBuf realAnswer(int identifier, byte[] requestAuthenticator) throws DecodeException {
        int length = realSigns ? RadiusView.HEADER_LENGTH + RadiusView.MESSAGE_AUTHENTICATOR_LENGTH
                : RadiusView.HEADER_LENGTH;
        ByteBuf batch = alloc.directBuffer(4097);
        batch.writeByte(RadiusCode.ACCESS_ACCEPT.value()).writeByte(identifier).writeShort(length).writeZero(16);
        if (realSigns) {
            batch.writeByte(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value())
                    .writeByte(RadiusView.MESSAGE_AUTHENTICATOR_LENGTH).writeZero(16);
        }
        ByteBuf answer = batch.retainedSlice(0, length);
        batch.release();
        RadiusAuthenticators.signResponse(RadiusView.wrap(answer), requestAuthenticator, REAL_SECRET);
        return answer;
    }

    private static byte[] accessRequest(int i, Random random) throws DecodeException {
        byte[] authenticator = new byte[16];
        random.nextBytes(authenticator);
        byte[] password = RadiusAuthenticators.hideUserPassword("benchpass".getBytes(StandardCharsets.UTF_8),
                CLIENT_SECRET, authenticator);
        ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        new DefaultRadiusPacket(RadiusCode.ACCESS_REQUEST, i & 0xff, authenticator, List.of(
                RadiusAttribute.text(RadiusAttributeType.USER_NAME, "benchuser"),
                new RadiusAttribute(RadiusAttributeType.USER_PASSWORD.value(), password),
                RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, "49151" + (10_000_000 + i)),
                new RadiusAttribute(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value(), new byte[16]))).encode(buf);
        RadiusAuthenticators.signRequest(RadiusView.wrap(buf), CLIENT_SECRET);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    private static InetAddress address(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
