package io.switchboard.l4;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.DatagramPlugin;
import java.net.InetSocketAddress;

/** Keys every datagram by its sender's address, masked to {@code prefixBits}; the bytes are not read. */
final class ClientAddressPlugin implements DatagramPlugin {

    private final int prefixBits;

    ClientAddressPlugin(int prefixBits) {
        this.prefixBits = prefixBits;
    }

    @Override
    public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) {
        return Decision.direct(classify(datagram, sender));
    }

    StickyKey classify(ByteBuf datagram, InetSocketAddress sender) {
        return StickyKey.clientAddress(sender.getAddress(), prefixBits);
    }
}
