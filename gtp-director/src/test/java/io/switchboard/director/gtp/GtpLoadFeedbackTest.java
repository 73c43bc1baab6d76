package io.switchboard.director.gtp;

import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.gtp.v2.GtpV2Header;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.testing.ManualTicker;
import io.switchboard.director.testing.TestFarms;
import io.switchboard.director.spi.EngineReals;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Load and overload figures from crafted GTPv2 answers turned into dynamic weights, without a network. */
class GtpLoadFeedbackTest {

    private final ManualTicker ticker = new ManualTicker();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Farms farms = new Farms(Map.of("pgw", farm("pgw", PredictorKind.ROUNDROBIN,
            TestFarms.FAIL_AT_ONCE, real("127.0.6.30", 1), real("127.0.6.31", 2))));
    private final RealServer a = farms.real("pgw", TestFarms.id("127.0.6.30"));
    private final RealServer b = farms.real("pgw", TestFarms.id("127.0.6.31"));
    private final GtpLoadFeedback feedback = new GtpLoadFeedback(farms, EngineReals.ENGINE, ticker, registry, "gtp-c");

    /** TS 29.274 §8.112: LCI {Sequence Number (183), Metric (182)}. */
    static byte[] lci(int instance, long sequence, int metric) {
        return GtpLoadControlIT.ie(181, instance, concat(GtpLoadControlIT.ie(183, 0, GtpMessages.int32(sequence)),
                GtpLoadControlIT.ie(182, 0, new byte[] {(byte) metric})));
    }

    /** TS 29.274 §8.111: OCI {Sequence Number, Metric, EPC Timer (156) as Period of Validity}. */
    static byte[] oci(int instance, long sequence, int metric, int epcTimer) {
        return GtpLoadControlIT.ie(180, instance, concat(GtpLoadControlIT.ie(183, 0, GtpMessages.int32(sequence)),
                GtpLoadControlIT.ie(182, 0, new byte[] {(byte) metric}), GtpLoadControlIT.ie(156, 0, new byte[] {(byte) epcTimer})));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private void answer(RealServer from, byte[]... ies) throws Exception {
        byte[] message = GtpLoadControlIT.withIes(GtpMessages.v2CreateResponse(1, 16, 0x3000, 0x7000, GtpResponder.ADDRESS),
                concat(ies));
        ByteBuf buf = Unpooled.wrappedBuffer(message);
        feedback.observe(buf, GtpV2Header.of(buf), from);
    }

    private double count(String ie, String result) {
        return registry.get("switchboard.gtp.load.control").tag("ie", ie).tag("result", result).counter().count();
    }

    @Test
    void theWeightFollowsLoadAndReduction() {
        assertThat(GtpLoadFeedback.weight(1, 0, 0)).isEqualTo(10);
        assertThat(GtpLoadFeedback.weight(1, 80, 0)).isEqualTo(2);
        assertThat(GtpLoadFeedback.weight(2, 50, 50)).isEqualTo(5);
        assertThat(GtpLoadFeedback.weight(1, 99, 0)).as("a nearly full real keeps a share").isEqualTo(1);
        assertThat(GtpLoadFeedback.weight(1, 100, 0)).isZero();
        assertThat(GtpLoadFeedback.weight(3, 0, 100)).isZero();
        assertThat(GtpLoadFeedback.weight(100, 0, 0)).as("capped").isEqualTo(255);
        assertThat(GtpLoadFeedback.weight(0, 0, 0)).isZero();
    }

    @Test
    void oneRealsLoadReweighsTheFarmAndOlderFiguresDoNotOverrideNewerOnes() throws Exception {
        answer(a, lci(0, 10, 80));
        assertThat(a.weight()).isEqualTo(2);
        assertThat(b.weight()).as("no figures: load 0 on the same scale").isEqualTo(20);

        answer(a, lci(0, 9, 0)); // older: ignored
        assertThat(a.weight()).isEqualTo(2);
        answer(a, lci(0, 10, 0)); // the same sequence number: not newer either
        assertThat(a.weight()).isEqualTo(2);
        assertThat(count("load", "stale")).isEqualTo(2);

        answer(a, lci(0, 11, 50));
        assertThat(a.weight()).isEqualTo(5);
        assertThat(count("load", "applied")).isEqualTo(2);
    }

    @Test
    void theSgwsOwnFigureCountsWhenItRelaysThePgws() throws Exception {
        answer(a, lci(0, 1, 90), lci(2, 1, 40));
        assertThat(a.weight()).isEqualTo(6);
    }

    @Test
    void fullOverloadThrottlesTheRealUntilThePeriodOfValidityEnds() throws Exception {
        answer(b, oci(0, 1, 100, 0b000_00011)); // 3 × 2 s
        assertThat(b.weight()).isZero();
        assertThat(b.state()).isEqualTo(RealState.DFP_THROTTLED);
        assertThat(a.weight()).isEqualTo(10);

        ticker.advance(Duration.ofSeconds(5));
        feedback.lapseIfDue();
        assertThat(b.weight()).isZero();

        ticker.advance(Duration.ofSeconds(1));
        feedback.lapseIfDue();
        assertThat(b.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(a.weight()).as("no figures left in the farm: static weights again").isEqualTo(1);
        assertThat(b.weight()).isEqualTo(2);

        answer(b, oci(0, 1, 100, 0b111_00000)); // the lapsed figure again: its sequence number is not newer
        assertThat(b.weight()).isEqualTo(2);
        assertThat(count("overload", "stale")).isEqualTo(1);
    }

    @Test
    void loadAndOverloadCombineAndARestartForgetsBoth() throws Exception {
        answer(b, lci(0, 5, 50), oci(0, 5, 50, 0b111_00000));
        assertThat(b.weight()).isEqualTo(5);
        feedback.forget(b);
        assertThat(b.weight()).isEqualTo(2);
        assertThat(a.weight()).isEqualTo(1);
        answer(b, lci(0, 1, 50)); // a restarted real numbers from the start again
        assertThat(b.weight()).isEqualTo(10);
    }

    @Test
    void aMalformedFigureIsCountedAndChangesNothing() throws Exception {
        answer(a, GtpLoadControlIT.ie(181, 0, GtpLoadControlIT.ie(182, 0, new byte[] {50}))); // no Sequence Number
        assertThat(count("any", "malformed")).isEqualTo(1);
        assertThat(a.weight()).isEqualTo(1);
    }

    @Test
    void answersWithoutFiguresLeaveWeightsSetElsewhereAlone() throws Exception {
        a.setWeight(7); // through the admin API
        answer(a);
        assertThat(a.weight()).isEqualTo(7);
    }
}
