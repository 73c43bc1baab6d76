package io.switchboard.director.ha;

import io.switchboard.director.spi.PluginModule;
import io.switchboard.director.spi.DatagramService;
import java.util.List;

/** The Home Agent Director: {@code ipmobile}, Mobile IPv4 registrations spread over home agents. */
public final class HaModule implements PluginModule {

    @Override
    public List<DatagramService> services() {
        return List.of(new HaService());
    }
}
