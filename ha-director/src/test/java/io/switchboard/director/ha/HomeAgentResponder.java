package io.switchboard.director.ha;

import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.mip.MipAuthenticators;
import io.switchboard.codec.mip.MipExtensionType;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.director.testing.LoopbackResponder;
import io.switchboard.director.testing.PcapFile;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in home agent (Debian has none): records every Registration Request it receives, checks
 * its MN-HA authenticator with the mobile nodes' shared key, and answers a Registration Reply with
 * code 0, the request's Identification, home address and Home Agent field, its MN-NAI and an MN-HA
 * authenticator of its own, to the request's source. Can hold its replies back.
 */
final class HomeAgentResponder extends LoopbackResponder {

    record Received(byte[] bytes, InetSocketAddress sender, boolean authenticatorValid) {
    }

    final List<Received> received = new CopyOnWriteArrayList<>();
    private final byte[] key;
    private final int spi;

    /** @param arrivals shared by the agents of a test: each appends its name when a request arrives */
    HomeAgentResponder(String name, byte[] key, int spi, PcapFile capture, List<String> arrivals) throws IOException {
        super(name, capture, arrivals);
        this.key = key;
        this.spi = spi;
        start();
    }

    @Override
    protected byte[] answer(byte[] bytes, InetSocketAddress sender) {
        byte[] reply = null;
        boolean valid = false;
        try {
            MipHeaderView request = MipHeaderView.wrap(Unpooled.wrappedBuffer(bytes));
            int auth = request.findExtension(MipExtensionType.MN_HA_AUTHENTICATION.value());
            valid = auth >= 0 && MipAuthenticators.verify(request, auth, key);
            reply = reply(request, spi, key);
        } catch (DecodeException e) {
            // recorded, not answered
        }
        received.add(new Received(bytes, sender, valid));
        return reply;
    }

    /** RRP: code 0, lifetime, home address, home agent, identification; MN-NAI; MN-HA authentication. */
    static byte[] reply(MipHeaderView request, int spi, byte[] key) {
        return MipMessages.authenticated(MipMessages.reply(0, request.lifetime(), request.homeAddress(),
                request.homeAgent(), request.identification(), request.nai()), MipExtensionType.MN_HA_AUTHENTICATION,
                spi, key);
    }
}
