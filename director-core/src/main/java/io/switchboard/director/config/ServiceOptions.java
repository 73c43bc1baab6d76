package io.switchboard.director.config;

/**
 * Settings only one service understands (RADIUS clients and secrets, the GTPv0 TID byte order, the
 * NWG release of ASN, ...), written under a virtual server's {@code options:} key. Each plug-in
 * defines its own record implementing this, and the configuration loader has one binder per service
 * that fills it; a service without options gets {@link #NONE}.
 */
public interface ServiceOptions {

    /** No service-specific settings. */
    ServiceOptions NONE = new ServiceOptions() {
        @Override
        public String toString() {
            return "ServiceOptions.NONE";
        }
    };
}
