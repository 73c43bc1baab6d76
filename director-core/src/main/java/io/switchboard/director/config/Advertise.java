package io.switchboard.director.config;

import java.util.Locale;
import java.util.Optional;

/**
 * When route health announces a virtual server's address ({@code advertise:}), as IOS SLB's
 * {@code advertise} command decides it (Cisco IOS SLB Command Reference, "advertise"; configuration
 * guide, "Route Health Injection"; IOS-SLB.md A27): by default IOS installs the virtual address's host
 * route when the virtual server is put in service; with {@code advertise active}, only while the
 * virtual server is operational, that is while at least one of its reals can serve.
 */
public enum Advertise {

    /** {@code advertise: active} (also {@code true}, Switchboard's meaning before this choice existed): IOS {@code advertise active}. */
    ACTIVE("active"),
    /** {@code advertise: inservice}: IOS's default, a bare {@code advertise} line or none. */
    INSERVICE("inservice");

    private final String configName;

    Advertise(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    /**
     * Whether the address is announced: the one copy of this decision, which {@code RouteHealth}
     * takes for the hook and the BGP speaker alike. A virtual server out of service (IOS
     * {@code no inservice}) or refusing new work (draining, removed) is never announced.
     *
     * @param serving    in service and taking new work
     * @param aRealServes a real of its farm or of a backup farm can serve
     */
    public boolean announced(boolean serving, boolean aRealServes) {
        return serving && (this == INSERVICE || aRealServes);
    }

    /** The value of {@code advertise:} as written: {@code active} or {@code inservice}, any case. */
    public static Optional<Advertise> named(String text) {
        for (Advertise a : values()) {
            if (a.configName.equals(text.toLowerCase(Locale.ROOT))) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }
}
