package io.switchboard.director.gtp;

import io.switchboard.director.shared.Codec;
import io.switchboard.director.spi.FarmViews;
import io.switchboard.director.spi.RealView;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of a {@link GtpSession} in the shared session table: what one node tells the others, so
 * the layout is a wire constant between nodes (and versions). About 70 bytes for a v2 session with an
 * IPv4 requester:
 *
 * <pre>
 *   format (1) = 1 | GTP version (1) | director TEID (4; v0: the TID, 8)
 *   v1/v2 only: real-facing TEID (4) | real's TEID (4) | requester's TEID (4)
 *   refreshed, epoch ms (8)
 *   farm (1 + UTF-8) | real id (1 + UTF-8)
 *   requester address length (1: 0, 4 or 16) | address | port (2, when an address)
 *   IMSI length (1, 255 = none) | digits
 *   binding: 0 none, 1 the IMSI, 2 its own text (1 + UTF-8)
 * </pre>
 *
 * The real is named by farm and id, not by its position in the configuration, so that a node whose
 * configuration differs cannot take a session for another real: a real it does not know makes the
 * value unreadable (the table ignores it, with a log).
 */
final class GtpSessionCodec implements Codec<GtpSession> {

    private static final int FORMAT = 2; // 2: the bearer after the refresh time
    private static final int NO_IMSI = 255;

    /** Director TEIDs: 4 bytes, big-endian. */
    static final Codec<Long> TEID = new Codec<>() {
        @Override
        public byte[] encode(Long teid) {
            return ByteBuffer.allocate(4).putInt((int) (long) teid).array();
        }

        @Override
        public Long decode(byte[] bytes) {
            if (bytes.length != 4) {
                throw new IllegalArgumentException("a TEID has 4 bytes, not " + bytes.length);
            }
            return ByteBuffer.wrap(bytes).getInt() & 0xFFFF_FFFFL;
        }
    };

    /** GTPv0 TIDs: 8 bytes, big-endian. */
    static final Codec<Long> TID = Codec.int64("TID");

    private final FarmViews farms;

    GtpSessionCodec(FarmViews farms) {
        this.farms = farms;
    }

    @Override
    public byte[] encode(GtpSession s) {
        byte[] farm = utf8(s.real().farm());
        byte[] real = utf8(s.real().id());
        byte[] address = s.requester() == null ? new byte[0] : s.requester().getAddress().getAddress();
        byte[] imsi = s.imsi() == null ? null : s.imsi().getBytes(StandardCharsets.US_ASCII);
        boolean bindingIsImsi = s.binding() != null && s.binding().equals(s.imsi());
        byte[] binding = s.binding() == null || bindingIsImsi ? null : utf8(s.binding());
        ByteBuffer out = ByteBuffer.allocate(2 + 8 + 12 + 8 + 2 + 2 + farm.length + real.length + 1 + address.length + 2
                + 1 + (imsi == null ? 0 : imsi.length) + 2 + (binding == null ? 0 : binding.length));
        out.put((byte) FORMAT).put((byte) s.version());
        if (s.version() == 0) {
            out.putLong(s.directorTeid());
        } else {
            out.putInt((int) s.directorTeid()).putInt((int) s.realFacingTeid()).putInt((int) s.realTeid())
                    .putInt((int) s.requesterTeid());
        }
        out.putLong(s.refreshedMillis()).putShort((short) s.bearer());
        out.put((byte) farm.length).put(farm).put((byte) real.length).put(real);
        out.put((byte) address.length).put(address);
        if (address.length > 0) {
            out.putShort((short) s.requester().getPort());
        }
        if (imsi == null) {
            out.put((byte) NO_IMSI);
        } else {
            out.put((byte) imsi.length).put(imsi);
        }
        if (binding != null) {
            out.put((byte) 2).put((byte) binding.length).put(binding);
        } else {
            out.put((byte) (bindingIsImsi ? 1 : 0));
        }
        return java.util.Arrays.copyOf(out.array(), out.position());
    }

    private static byte[] utf8(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 255) {
            throw new IllegalArgumentException("longer than 255 bytes: " + text);
        }
        return bytes;
    }

    @Override
    public GtpSession decode(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            int format = in.get();
            if (format != FORMAT) {
                throw new IllegalArgumentException("session format " + format + ", this node reads " + FORMAT);
            }
            int version = in.get();
            long director;
            long realFacing = 0;
            long realTeid = 0;
            long requesterTeid = 0;
            if (version == 0) {
                director = in.getLong();
            } else {
                director = in.getInt() & 0xFFFF_FFFFL;
                realFacing = in.getInt() & 0xFFFF_FFFFL;
                realTeid = in.getInt() & 0xFFFF_FFFFL;
                requesterTeid = in.getInt() & 0xFFFF_FFFFL;
            }
            long refreshed = in.getLong();
            int bearer = in.getShort() & 0xFFFF;
            String farm = text(in);
            String id = text(in);
            RealView real = farms.real(farm, id);
            if (real == null) {
                throw new IllegalArgumentException("no real " + id + " in farm " + farm + " here");
            }
            int addressLength = in.get() & 0xFF;
            InetSocketAddress requester = null;
            if (addressLength > 0) {
                byte[] address = new byte[addressLength];
                in.get(address);
                requester = new InetSocketAddress(InetAddress.getByAddress(address), in.getShort() & 0xFFFF);
            }
            int imsiLength = in.get() & 0xFF;
            String imsi = null;
            if (imsiLength != NO_IMSI) {
                byte[] digits = new byte[imsiLength];
                in.get(digits);
                imsi = new String(digits, StandardCharsets.US_ASCII);
            }
            int bindingKind = in.get();
            String binding = switch (bindingKind) {
                case 0 -> null;
                case 1 -> imsi;
                case 2 -> text(in);
                default -> throw new IllegalArgumentException("binding kind " + bindingKind);
            };
            return new GtpSession(version, real, imsi, binding, director, realFacing, realTeid, requesterTeid, requester,
                    refreshed, bearer);
        } catch (BufferUnderflowException | UnknownHostException e) {
            throw new IllegalArgumentException("truncated or bad session: " + e, e);
        }
    }

    private static String text(ByteBuffer in) {
        byte[] bytes = new byte[in.get() & 0xFF];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
