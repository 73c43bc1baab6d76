package io.switchboard.director.udp;

import io.switchboard.director.config.ServiceKind;
import io.switchboard.director.config.VirtualServerConfig;

/**
 * A protocol plug-in as the launcher finds it: which service it implements and how it is set up for
 * one virtual server. Implementations are listed in {@code META-INF/services}.
 */
public interface DatagramService {

    ServiceKind kind();

    DatagramPlugin create(VirtualServerConfig config);
}
