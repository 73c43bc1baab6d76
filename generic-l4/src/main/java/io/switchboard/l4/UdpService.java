package io.switchboard.l4;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.spi.StickyKind;
import java.util.EnumSet;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;

/**
 * {@code service: udp}: datagrams balanced without looking inside them, kept sticky by client
 * address (or by the client's subnet when the sticky configuration has a netmask). Answers travel
 * back on the flow's own director socket and are relayed from the virtual address.
 */
public final class UdpService implements DatagramService {

    @Override
    public ServiceSpec spec() {
        return ServiceSpec.udp("udp", EnumSet.of(PredictorKind.ROUNDROBIN, PredictorKind.LEASTCONNS, PredictorKind.HASH),
                StickyKind.CLIENT_ADDRESS);
    }

    @Override
    public DatagramPlugin create(VirtualServerConfig config) {
        int prefixBits = config.sticky().map(StickyConfig::netmaskBits).flatMap(
                bits -> bits.isPresent() ? java.util.Optional.of(bits.getAsInt()) : java.util.Optional.empty())
                .orElse(Integer.MAX_VALUE);
        return new ClientAddressPlugin(prefixBits);
    }
}
