package io.switchboard.director.asn;

import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.director.testing.LoopbackResponder;
import io.switchboard.director.testing.PcapFile;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in ASN gateway (Debian has none): records every R6 message it receives and answers an
 * MS_PreAttachment_Req with an MS_PreAttachment_Rsp (same MSID and transaction id, numbered per the
 * release) to the source of the request. Other messages get no answer.
 */
final class GatewayResponder extends LoopbackResponder {

    record Received(byte[] bytes, InetSocketAddress sender) {
        long msid() {
            long m = 0;
            for (int i = 6; i < 12; i++) {
                m = (m << 8) | (bytes[i] & 0xff);
            }
            return m;
        }

        int messageType() {
            return bytes[3] & 0x1f;
        }

        int transactionId() {
            return ((bytes[16] & 0xff) << 8) | (bytes[17] & 0xff);
        }
    }

    final List<Received> received = new CopyOnWriteArrayList<>();
    private final NwgRelease release;

    GatewayResponder(String name, NwgRelease release, PcapFile capture, List<String> arrivals) throws IOException {
        super(name, capture, arrivals);
        this.release = release;
        start();
    }

    @Override
    protected byte[] answer(byte[] bytes, InetSocketAddress sender) {
        Received r = new Received(bytes, sender);
        received.add(r);
        if (bytes.length >= 20 && (bytes[2] & 0xff) == 9
                && release.preAttachment(9, r.messageType()) == R6PreAttachment.REQUEST) {
            return R6Messages.preAttachment(release, R6PreAttachment.RESPONSE, r.msid(), r.transactionId());
        }
        return null;
    }
}
