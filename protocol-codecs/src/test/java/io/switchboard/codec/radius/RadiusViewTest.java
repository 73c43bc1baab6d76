package io.switchboard.codec.radius;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.Hex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RadiusViewTest {

    private static final Map<String, Integer> CODES = Map.ofEntries(
            Map.entry("ACCESS_REQUEST", 1), Map.entry("ACCESS_ACCEPT", 2), Map.entry("ACCESS_REJECT", 3),
            Map.entry("ACCOUNTING_REQUEST", 4), Map.entry("ACCOUNTING_RESPONSE", 5),
            Map.entry("ACCESS_CHALLENGE", 11), Map.entry("STATUS_SERVER", 12), Map.entry("STATUS_CLIENT", 13),
            Map.entry("DISCONNECT_REQUEST", 40), Map.entry("DISCONNECT_ACK", 41), Map.entry("DISCONNECT_NAK", 42),
            Map.entry("COA_REQUEST", 43), Map.entry("COA_ACK", 44), Map.entry("COA_NAK", 45),
            Map.entry("RFC2865_ACCESS_REQUEST", 1), Map.entry("RFC2865_ACCESS_ACCEPT", 2));

    @Test
    void everyVectorDecodesAndReEncodesToTheSameBytes() throws DecodeException {
        assertThat(CODES.keySet()).isEqualTo(RadiusVectors.ALL.keySet());
        for (Map.Entry<String, String> v : RadiusVectors.ALL.entrySet()) {
            byte[] bytes = Hex.bytes(v.getValue());
            ByteBuf in = Unpooled.wrappedBuffer(bytes);
            ByteBuf out = Unpooled.buffer();
            try {
                RadiusView view = RadiusView.wrap(in);
                assertThat(view.code()).as(v.getKey()).isEqualTo(CODES.get(v.getKey()));
                assertThat(view.length()).as(v.getKey()).isEqualTo(bytes.length);
                RadiusPacket packet = RadiusPacket.decode(in);
                assertThat(packet.code().value()).isEqualTo(view.code());
                assertThat(packet.code().name()).doesNotStartWith("Code-");
                packet.encode(out);
                assertThat(ByteBufUtil.getBytes(out)).as(v.getKey()).isEqualTo(bytes);
                assertThat(in.readerIndex()).isZero();
            } finally {
                in.release();
                out.release();
            }
        }
    }

    @Test
    void readsTheKeysADirectorUses() throws DecodeException {
        ByteBuf req = Unpooled.wrappedBuffer(Hex.bytes(RadiusVectors.ACCESS_REQUEST));
        ByteBuf acct = Unpooled.wrappedBuffer(Hex.bytes(RadiusVectors.ACCOUNTING_REQUEST));
        ByteBuf challenge = Unpooled.wrappedBuffer(Hex.bytes(RadiusVectors.ACCESS_CHALLENGE));
        try {
            RadiusView r = RadiusView.wrap(req);
            assertThat(r.identifier()).isEqualTo(42);
            assertThat(r.userName()).isEqualTo("alice");
            assertThat(r.callingStationId()).isEqualTo("00-11-22-33-44-55");
            assertThat(r.framedIpAddress()).isEqualTo(-1);
            assertThat(r.acctStatusType()).isEqualTo(-1);
            assertThat(r.acctSessionId()).isNull();
            assertThat(r.state()).isNull();
            assertThat(r.authenticator()).isEqualTo(Hex.bytes("a1a2a3a4a5a6a7a8a9aaabacadaeafb0"));

            RadiusView a = RadiusView.wrap(acct);
            assertThat(a.acctStatusType()).isEqualTo(RadiusAcctStatusType.START);
            assertThat(a.acctSessionId()).isEqualTo("sess-0001");
            assertThat(a.framedIpAddress()).isEqualTo(0x0a010203L);
            int vsa = a.find(RadiusAttributeType.VENDOR_SPECIFIC.value());
            assertThat(a.vendorId(vsa)).isEqualTo(RadiusVendor.THREE_GPP);
            assertThat(a.vendorSubAttributesWellFormed(vsa)).isTrue();
            int sub = a.findVendor(RadiusVendor.THREE_GPP, 1);
            assertThat(sub).isEqualTo(a.firstVendorSubAttribute(vsa));
            assertThat(a.value(sub)).isEqualTo(new byte[4]);
            assertThat(a.nextVendorSubAttribute(vsa, sub)).isEqualTo(-1);

            assertThat(RadiusView.wrap(challenge).state()).isEqualTo(Hex.bytes("00ff7e5a"));
        } finally {
            req.release();
            acct.release();
            challenge.release();
        }
    }

    @Test
    void walksAttributesInOrder() throws DecodeException {
        ByteBuf buf = Unpooled.wrappedBuffer(Hex.bytes(RadiusVectors.ACCESS_ACCEPT));
        try {
            RadiusView view = RadiusView.wrap(buf);
            List<Integer> types = new ArrayList<>();
            for (int a = view.firstAttribute(); a >= 0; a = view.nextAttribute(a)) {
                types.add(view.attributeType(a));
            }
            assertThat(types).containsExactly(8, 26, 80);
            int sub = view.findVendor(RadiusVendor.CISCO, 1);
            assertThat(view.text(sub)).isEqualTo("ip:addr-pool=p1");
            assertThat(view.findVendor(RadiusVendor.CISCO, 2)).isEqualTo(-1);
            assertThat(view.findVendor(RadiusVendor.WIMAX_FORUM, 1)).isEqualTo(-1);
        } finally {
            buf.release();
        }
    }

    @Test
    void startsAtTheReaderIndexAndIgnoresPadding() throws DecodeException {
        byte[] packet = Hex.bytes(RadiusVectors.ACCOUNTING_REQUEST);
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer();
        try {
            buf.writeBytes(new byte[] {9, 9, 9}).writeBytes(packet).writeBytes(new byte[] {0, 0, 0, 0});
            buf.readerIndex(3);
            RadiusView view = RadiusView.wrap(buf);
            assertThat(view.base()).isEqualTo(3);
            assertThat(view.length()).isEqualTo(packet.length);
            assertThat(view.userName()).isEqualTo("alice");
            assertThat(RadiusAuthenticators.verifyRequest(view, RadiusVectors.SECRET)).isTrue();
            assertThat(buf.readerIndex()).isEqualTo(3);
            assertThat(buf.writerIndex()).isEqualTo(3 + packet.length + 4);
        } finally {
            buf.release();
        }
    }

    @Test
    void buildsSignsAndReadsAPacketFromTheModel() throws DecodeException {
        RadiusPacket stop = new DefaultRadiusPacket(RadiusCode.ACCOUNTING_REQUEST, 77, new byte[16], List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.STOP),
                RadiusAttribute.text(RadiusAttributeType.ACCT_SESSION_ID, "s-1"),
                RadiusAttribute.text(RadiusAttributeType.USER_NAME, "carol"),
                RadiusAttribute.vendorSpecific(RadiusVendor.WIMAX_FORUM, 1, new byte[] {1, 2})));
        ByteBuf buf = Unpooled.buffer();
        try {
            stop.encode(buf);
            assertThat(buf.readableBytes()).isEqualTo(stop.length());
            RadiusView view = RadiusView.wrap(buf);
            RadiusAuthenticators.signRequest(view, RadiusVectors.SECRET);
            assertThat(RadiusAuthenticators.verifyRequest(view, RadiusVectors.SECRET)).isTrue();
            assertThat(view.acctStatusType()).isEqualTo(RadiusAcctStatusType.STOP);
            assertThat(view.findVendor(RadiusVendor.WIMAX_FORUM, 1)).isPositive();
            RadiusPacket back = RadiusPacket.decode(buf);
            assertThat(back.attributes()).isEqualTo(stop.attributes());
            assertThat(back.attribute(RadiusAttributeType.USER_NAME).asText()).isEqualTo("carol");
            assertThat(back.attribute(RadiusAttributeType.VENDOR_SPECIFIC).vendorId()).isEqualTo(RadiusVendor.WIMAX_FORUM);
            assertThat(back.attribute(RadiusAttributeType.STATE)).isNull();
        } finally {
            buf.release();
        }
    }

    @Test
    void codesAndTypesAreOpen() {
        assertThat(RadiusCode.valueOf(43)).isSameAs(RadiusCode.COA_REQUEST);
        assertThat(RadiusCode.valueOf(250).name()).isEqualTo("Code-250");
        assertThat(RadiusCode.valueOf(250)).isEqualTo(RadiusCode.valueOf(250));
        assertThat(RadiusAttributeType.valueOf(80)).isSameAs(RadiusAttributeType.MESSAGE_AUTHENTICATOR);
        assertThat(RadiusAttributeType.valueOf(241).toString()).isEqualTo("Attr-241(241)");
    }
}
