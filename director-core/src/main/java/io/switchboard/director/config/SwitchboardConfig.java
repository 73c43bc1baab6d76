package io.switchboard.director.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** One whole, validated configuration document. Maps keep the document's order. */
public record SwitchboardConfig(ClusterConfig cluster, AdminConfig admin, Map<String, FarmConfig> farms,
        Map<String, VirtualServerConfig> virtualServers) {

    public SwitchboardConfig {
        farms = Collections.unmodifiableMap(new LinkedHashMap<>(farms));
        virtualServers = Collections.unmodifiableMap(new LinkedHashMap<>(virtualServers));
    }
}
