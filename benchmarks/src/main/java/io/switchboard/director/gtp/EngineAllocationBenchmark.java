package io.switchboard.director.gtp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.radius.DefaultRadiusPacket;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.pending.PendingTable;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyKey;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The bytes each step of the per-request path allocates on the event loop (issue 24: run with
 * {@code -prof gc}, whose {@code gc.alloc.rate.norm} is bytes per operation and, unlike the rates,
 * does not move with the machine's other load). Each benchmark is one step, on state set up once and
 * buffers reused, so what it allocates is the step's own:
 * <ul>
 *   <li>{@code stickyHit}: a bound subscriber's sticky lookup and selection;</li>
 *   <li>{@code newBinding}: a subscriber without binding — the predictor's choice written back as a
 *       new binding (then removed again outside the path, so the table stays at its size);</li>
 *   <li>{@code answerMatch}: a request's pending insert and its answer's match (the remove) with
 *       the requester's sequence number restored in the answer;</li>
 *   <li>{@code gtpCreateRewrite}: gtp-inspect's rewrite of a real Create Session Request
 *       ({@code benchmarks/gtp/create-session.pcap}): the director's sequence number and its own
 *       F-TEID (TEID and address) in place of the MME's, by {@link GtpEndpointRewriter};</li>
 *   <li>{@code radiusRequestResign}: an Access-Request's Message-Authenticator re-signed with the
 *       real's secret (RFC 3579 §3.2);</li>
 *   <li>{@code radiusAnswerResign}: an Access-Accept's Message-Authenticator and Response
 *       Authenticator re-signed with the client's secret (RFC 2865 §3);</li>
 * </ul>
 * and {@code baseline}, a read of the same buffers, which allocates nothing. (In the gtp-director
 * package for the package-private rewriter.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EngineAllocationBenchmark {

    private static final StickyKind IMSI = StickyKind.of("imsi", StickyKind.Format.TEXT);
    private static final int SUBSCRIBERS = 10_000;
    private static final byte[] SECRET = "real-secret".getBytes(StandardCharsets.UTF_8);
    /** Ethernet, IPv4 (no options) and UDP headers before the GTP message of the capture's frame. */
    private static final int FRAME_HEADERS = 14 + 20 + 8;

    private StickyKey[] bound;
    private StickyKey[] unbound;
    private InMemoryStickyTable table;
    private RealSelector selector;
    private PendingTable<Selection> pending;
    private Selection selection;
    private int next;
    private long transactionId;

    private final GtpMessageView gtp = new GtpMessageView();
    private GtpEndpointRewriter rewriter;
    private byte[] createSession;
    private ByteBuf gtpBuffer;

    private final byte[] requestAuthenticator = new byte[16];
    private ByteBuf accessRequest;
    private ByteBuf accessAccept;

    @Setup
    public void setUp() throws Exception {
        FarmConfig farm = new FarmConfig("ggsn", PredictorKind.ROUNDROBIN, new FailureDetection(8, 2, Duration.ofSeconds(60)),
                List.of(real("127.0.0.2", 3), real("127.0.0.3", 1), real("127.0.0.4", 2)), Optional.empty());
        Farms farms = new Farms(Map.of("ggsn", farm));
        table = new InMemoryStickyTable("imsi", Duration.ofHours(1), 4 * SUBSCRIBERS);
        selector = new RealSelector(farms, farms.farm("ggsn"), table);
        bound = new StickyKey[SUBSCRIBERS];
        unbound = new StickyKey[SUBSCRIBERS];
        for (int i = 0; i < SUBSCRIBERS; i++) {
            bound[i] = StickyKey.of(IMSI, ("26242" + (1_000_000_000L + i)).getBytes(StandardCharsets.US_ASCII));
            unbound[i] = StickyKey.of(IMSI, ("26243" + (1_000_000_000L + i)).getBytes(StandardCharsets.US_ASCII));
            selector.select(bound[i], 0);
        }
        pending = new PendingTable<>(1 << 16, Duration.ofSeconds(2).toNanos(), v -> { });
        selection = selector.select(bound[0], 0);

        rewriter = new GtpEndpointRewriter(InetAddress.getByName("127.0.0.10"), List.of());
        createSession = createSession();
        gtpBuffer = Unpooled.directBuffer(createSession.length).writeBytes(createSession);

        accessRequest = Unpooled.directBuffer(256);
        new DefaultRadiusPacket(RadiusCode.ACCESS_REQUEST, 7, requestAuthenticator, List.of(
                RadiusAttribute.text(RadiusAttributeType.USER_NAME, "benchuser"),
                RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, "4915110000000"),
                new RadiusAttribute(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value(), new byte[16])))
                .encode(accessRequest);
        accessAccept = Unpooled.directBuffer(64);
        new DefaultRadiusPacket(RadiusCode.ACCESS_ACCEPT, 7, new byte[16], List.of(
                new RadiusAttribute(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value(), new byte[16])))
                .encode(accessAccept);
    }

    /** The GTP message of the capture's one frame (a classic pcap: 24-octet file header, 16 per record). */
    private static byte[] createSession() throws IOException {
        Path file = Path.of("benchmarks/gtp/create-session.pcap");
        byte[] pcap;
        if (Files.exists(file)) {
            pcap = Files.readAllBytes(file);
        } else {
            try (InputStream in = Files.newInputStream(Path.of("gtp/create-session.pcap"))) {
                pcap = in.readAllBytes();
            }
        }
        int frame = 24 + 16;
        int udpLength = ((pcap[frame + 14 + 20 + 4] & 0xff) << 8) | (pcap[frame + 14 + 20 + 5] & 0xff);
        return java.util.Arrays.copyOfRange(pcap, frame + FRAME_HEADERS, frame + FRAME_HEADERS + udpLength - 8);
    }

    private static RealConfig real(String address, int weight) throws Exception {
        return new RealConfig(InetAddress.getByName(address), 2123, weight, OptionalInt.empty(), true);
    }

    private int nextIndex() {
        next = (next + 7919) % SUBSCRIBERS; // a prime stride: no cache-friendly sequential walk
        return next;
    }

    @Benchmark
    public int baseline() {
        return (int) bound[nextIndex()].hash() + gtpBuffer.getByte(0) + accessRequest.getByte(1);
    }

    @Benchmark
    public Object stickyHit() {
        return selector.select(bound[nextIndex()], 1);
    }

    @Benchmark
    public Object newBinding() {
        StickyKey key = unbound[nextIndex()];
        Selection s = selector.select(key, 1);
        table.remove(key); // not the request's work: keeps every operation a new binding
        s.real().releaseClaim();
        return s;
    }

    @Benchmark
    public Object answerMatch() throws DecodeException {
        long tx = transactionId++;
        int slot = selection.real().slot();
        pending.put(slot, tx, selection, 1);
        Selection matched = pending.remove(slot, tx);
        gtp.wrap(gtpBuffer, 0).setSequence(0x1234); // the requester's sequence number back
        return matched;
    }

    @Benchmark
    public Object gtpCreateRewrite() throws DecodeException {
        gtpBuffer.setBytes(0, createSession); // the MME's message as received, into the reused buffer
        gtpBuffer.writerIndex(createSession.length);
        GtpMessageView view = gtp.wrap(gtpBuffer, 0);
        view.setSequence((int) transactionId++);
        return rewriter.rewrite(view, 0x1000_0000L | (transactionId & 0xffff));
    }

    @Benchmark
    public int radiusRequestResign() throws DecodeException {
        RadiusAuthenticators.signRequest(RadiusView.wrap(accessRequest), SECRET);
        return accessRequest.getByte(RadiusView.HEADER_LENGTH);
    }

    @Benchmark
    public int radiusAnswerResign() throws DecodeException {
        RadiusAuthenticators.signResponse(RadiusView.wrap(accessAccept), requestAuthenticator, SECRET);
        return accessAccept.getByte(RadiusView.AUTHENTICATOR_OFFSET);
    }
}
