package io.switchboard.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v2.DefaultGtpV2Message;
import io.switchboard.codec.gtp.v2.GtpV2Codec;
import io.switchboard.codec.gtp.v2.GtpV2Ie;
import io.switchboard.codec.gtp.v2.GtpV2MessageType;
import io.switchboard.codec.radius.DefaultRadiusPacket;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The codec hot path: the header views and the key a director sticks on — the IMSI of a GTPv2 Create
 * Session Request, the Calling-Station-Id of a RADIUS Access-Request — read in place from a buffer,
 * beside two baselines measured in the same run: copying the datagram's bytes out of the buffer (what
 * any forwarding costs at least), and a {@link HashMap} lookup of a short string key (what the sticky
 * lookup after it costs at least). Messages are built with the project's encoders.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {

    private ByteBuf createSession;
    private ByteBuf accessRequest;
    private final GtpMessageView gtp = new GtpMessageView();
    private Map<String, Integer> map;
    private String mapKey;

    @Setup
    public void setUp() throws Exception {
        createSession = Unpooled.directBuffer();
        GtpV2Codec.encode(new DefaultGtpV2Message(GtpV2MessageType.CREATE_SESSION_REQUEST, 0, 0x123456, List.of(
                new GtpV2Ie.Recovery(0, 3),
                new GtpV2Ie.Fteid(0, 10, 0xA1B2C3D4L, (Inet4Address) InetAddress.getByName("192.0.2.1"), null),
                new GtpV2Ie.Apn(0, "internet.mnc001.mcc262.gprs"),
                new GtpV2Ie.Imsi(0, "262011234567890"),
                new GtpV2Ie.BearerContext(0, List.of(new GtpV2Ie.Ebi(0, 5))))), createSession);
        accessRequest = Unpooled.directBuffer();
        new DefaultRadiusPacket(RadiusCode.ACCESS_REQUEST, 17, new byte[16], List.of(
                RadiusAttribute.text(RadiusAttributeType.USER_NAME, "alice@example.net"),
                new RadiusAttribute(4, new byte[] {10, 0, 0, 1}),
                new RadiusAttribute(5, new byte[] {0, 0, 0, 7}),
                RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, "491701234567"))).encode(accessRequest);
        map = new HashMap<>();
        for (int i = 0; i < 100_000; i++) {
            map.put("2620112" + (10_000_000 + i), i);
        }
        mapKey = "262011210012345";
    }

    @TearDown
    public void tearDown() {
        createSession.release();
        accessRequest.release();
    }

    /** Baseline: copy the Create Session Request's bytes out of the buffer. */
    @Benchmark
    public byte[] baselineCopyGtpBytes() {
        return ByteBufUtil.getBytes(createSession, createSession.readerIndex(), createSession.readableBytes(), false);
    }

    /** Baseline: one HashMap lookup of a 15-character key among 100,000. */
    @Benchmark
    public Integer baselineHashMapLookup() {
        return map.get(mapKey);
    }

    /** GTP header view: version, type, sequence, TEID. */
    @Benchmark
    public long gtpHeaderView() throws DecodeException {
        gtp.wrap(createSession);
        return gtp.messageTypeValue() + gtp.sequence() + gtp.teid();
    }

    /** The sticky key of a Create Session Request: IMSI (IE 1) read in place, TBCD to digits. */
    @Benchmark
    public String gtpV2ImsiOfCreateSession() throws DecodeException {
        return gtp.wrap(createSession).imsi();
    }

    /** RADIUS view: wrap (checks every attribute length), code and identifier. */
    @Benchmark
    public int radiusHeaderView() throws DecodeException {
        RadiusView view = RadiusView.wrap(accessRequest);
        return view.code() + view.identifier();
    }

    /** The sticky key of an Access-Request: Calling-Station-Id (attribute 31). */
    @Benchmark
    public String radiusCallingStationId() throws DecodeException {
        return RadiusView.wrap(accessRequest).callingStationId();
    }
}
