package io.switchboard.l4;

import io.switchboard.director.spi.PluginModule;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.l4.tcp.TcpService;
import java.util.List;

/** The generic services, {@code udp} and {@code tcp}, keyed by the engine's client address. */
public final class L4Module implements PluginModule {

    @Override
    public List<DatagramService> services() {
        return List.of(new UdpService(), new TcpService());
    }
}
