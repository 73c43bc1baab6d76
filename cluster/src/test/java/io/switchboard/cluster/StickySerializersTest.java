package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Everything the tables store or send is Compact with our serializers: never Java serialization. */
class StickySerializersTest {

    /** Hazelcast's type id of Compact data ({@code SerializationConstants.TYPE_COMPACT}). */
    private static final int COMPACT = -55;
    /** Hazelcast's type id of its own {@code Long} ({@code SerializationConstants.CONSTANT_TYPE_LONG}). */
    private static final int LONG = -8;
    private static final StickyBinding BINDING = new StickyBinding("ggsn", "10.0.0.1:2123");
    /** Kinds as the plug-ins declare them; none of those plug-ins is on this module's class path. */
    private static final StickyKind IMSI = StickyKind.of("imsi", StickyKind.Format.TEXT);
    private static final StickyKind MSID = StickyKind.of("msid", StickyKind.Format.COLON_HEX);
    private static final StickyKind FRAMED_IP = StickyKind.of("framed-ip", StickyKind.Format.ADDRESS);

    private static TestMembers members;
    private static SerializationService serialization;

    @BeforeAll
    static void start() {
        members = new TestMembers();
        serialization = ((SerializationServiceSupport) members.start().hazelcast()).getSerializationService();
    }

    @AfterAll
    static void stop() {
        members.close();
    }

    @Test
    void everyKeyKindRoundTripsInTheMapsForm() throws Exception {
        StickyKey[] keys = {
                StickyKey.parse(IMSI, "262011234567890"),
                StickyKey.parse(MSID, "00:11:22:33:44:55"),
                StickyKey.parse(FRAMED_IP, "10.1.2.3"),
                StickyKey.clientAddress(InetAddress.getByName("2001:db8::1"), 64),
                StickyKey.parse(StickyKind.of("calling-station-id", StickyKind.Format.TEXT), "491701234567"),
                StickyKey.parse(StickyKind.of("username", StickyKind.Format.TEXT), "alice@apn.example"),
                StickyKey.parse(IMSI, "001010000000001"),
                StickyKey.parse(IMSI, "2620112345678901234"), // not an IMSI's length: written as bytes
                StickyKey.parse(StickyKind.of("calling-station-id", StickyKind.Format.TEXT), "262011234567890"),
        };
        Replica replica = new Replica(0);
        for (StickyKey key : keys) {
            Object mapKey = Replica.mapKey(key);
            Data data = serialization.toData(mapKey);
            boolean imsi = key.kind().equals(IMSI) && key.length() <= 15;
            assertThat(mapKey).as(key.toString()).isInstanceOf(imsi ? Long.class : StickyKey.class);
            assertThat(data.getType()).isEqualTo(imsi ? LONG : COMPACT);
            StickyKey back = replica.stickyKey(serialization.toObject(data));
            assertThat(back).isEqualTo(key);
            assertThat(back.kind()).isEqualTo(key.kind());
            // Equal keys must serialize to equal bytes: the map compares keys by their bytes.
            assertThat(serialization.toData(Replica.mapKey(StickyKey.of(key.kind(), key.value()))).toByteArray())
                    .isEqualTo(data.toByteArray());
        }
        Data imsi = serialization.toData(Replica.mapKey(keys[0]));
        System.out.printf("serialized IMSI key %d bytes, binding %d bytes%n", imsi.totalSize(),
                serialization.toData(BINDING).totalSize());
        // Hazelcast's own Long: header (8) and the TBCD int64 (8); the Compact form with a TBCD field was 30.
        assertThat(imsi.totalSize()).isEqualTo(16);
        assertThat(serialization.toData(Replica.mapKey(keys[8])).totalSize())
                .as("digits of another kind: as bytes").isGreaterThan(40);
    }

    @Test
    void aBindingValueIsARealIndexAndATimeInSixteenBytes() {
        long now = 1_770_000_123_456L;
        long value = BindingValue.of(BindingValue.MAX_INDEX, now);
        assertThat(BindingValue.index(value)).isEqualTo(BindingValue.MAX_INDEX);
        assertThat(BindingValue.wallMillis(value)).isEqualTo(now);
        assertThat(value).isPositive();
        assertThat(BindingValue.expired(value, 1_000, now + 1_000)).isFalse();
        assertThat(BindingValue.expired(value, 1_000, now + 1_001)).isTrue();
        // Hazelcast's own Long: header (8) and the int64; the Compact binding of two strings was 47.
        assertThat(serialization.toData(value).totalSize()).isEqualTo(16);
        assertThat(serialization.toData(BINDING).totalSize()).isGreaterThan(40);
        // Interned: entries of one real written in one quantum share one Long (the map stores objects).
        assertThat(BindingValue.shared(value)).isSameAs(BindingValue.shared(BindingValue.of(BindingValue.MAX_INDEX, now)))
                .isEqualTo(value);
        assertThat(BindingValue.shared(value + 1)).isEqualTo(value + 1);
        assertThat(BindingValue.quantumMillis(3_000)).as("idle 2 s").isEqualTo(3);
        assertThat(BindingValue.quantumMillis(2_700_000)).as("idle 30 min").isEqualTo(1_000);
        assertThat(BindingValue.quantumMillis(10)).isEqualTo(1);
        assertThatThrownBy(() -> BindingValue.of(0, now)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BindingValue.of(BindingValue.MAX_INDEX + 1, now))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRealsPreferredIndexIsAStableHashInRange() {
        // A wire constant: every node and version must prefer the same index for the same real.
        int a = RealIndex.preferred(BINDING);
        assertThat(a).isBetween(1, BindingValue.MAX_INDEX).isEqualTo(RealIndex.preferred(
                new StickyBinding("ggsn", "10.0.0.1:2123")));
        assertThat(RealIndex.preferred(new StickyBinding("ggsn", "10.0.0.2:2123"))).isNotEqualTo(a);
    }

    @Test
    void bindingsAndEntryProcessorsAreCompact() {
        StickyBinding other = new StickyBinding("ggsn", "10.0.0.2:2123");
        Object[] values = {BINDING, other, new Claim(7, 1_770_000_000_000L, 90_000),
            new Refresh(7, 1_770_000_000_000L, 90_000), new Rebind(7, 8, 1_770_000_000_000L, 90_000), new Release(8),
            new Expire(1_770_000_000_000L)};
        for (Object value : values) {
            Data data = serialization.toData(value);
            assertThat(data.getType()).as("%s", value).isEqualTo(COMPACT);
            assertThat((Object) serialization.toObject(data)).isEqualTo(value);
        }
    }

    @Test
    void realStateAndItsChangesAreCompact() {
        Object[] values = {new RealRecord(false, 3, 0, 1_700_000_000_000L, "member-uuid", false, 0),
                new RealRecord(true, 4, 7, 0, "member-uuid", true, 1_700_000_060_000L),
            RealChange.admin(true, "a"), RealChange.weight(0, "b"), RealChange.failed(1_700_000_000_000L, "c"),
            RealChange.drain(1_700_000_060_000L, "d")};
        for (Object value : values) {
            Data data = serialization.toData(value);
            assertThat(data.getType()).as("%s", value).isEqualTo(COMPACT);
            assertThat((Object) serialization.toObject(data)).isEqualTo(value);
        }
    }

    @Test
    void aKindIsWrittenByItsNameAndReadBackEvenWithoutItsPlugin() {
        StickyKey key = StickyKey.parse(MSID, "00:11:22:33:44:55");

        StickyKey back = serialization.toObject(serialization.toData(key));

        // This node has no ASN plug-in: the kind read back is the one of that name, the key equal.
        assertThat(back).isEqualTo(key);
        assertThat(back.kind().configName()).isEqualTo("msid");
        assertThat(back.toString()).isEqualTo("00:11:22:33:44:55");
    }
}
