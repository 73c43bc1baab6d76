package io.switchboard.director.config;

/**
 * Settings only one service understands (RADIUS clients and secrets, the GTPv0 TID byte order, the
 * NWG release of ASN, ...), written under a virtual server's own keys. Each plug-in defines its own
 * record implementing this and the {@link io.switchboard.director.spi.OptionsBinder} that fills it;
 * a service without options gets {@link #NONE}.
 */
public interface ServiceOptions {

    /**
     * Farms these settings send requests to besides the virtual server's own (GTP APN maps), by the
     * path of the key that names each (relative to the virtual server, e.g. {@code gtp.apn-maps[0].farm}):
     * the loader checks that they exist and that their predictors suit the service, as for the virtual
     * server's farm.
     */
    default java.util.Map<String, String> farmReferences() {
        return java.util.Map.of();
    }

    /** No service-specific settings. */
    ServiceOptions NONE = new ServiceOptions() {
        @Override
        public String toString() {
            return "ServiceOptions.NONE";
        }
    };
}
