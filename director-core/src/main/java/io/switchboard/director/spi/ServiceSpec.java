package io.switchboard.director.spi;

import io.switchboard.director.config.PredictorKind;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a service declares about itself, so that the configuration can be checked without the
 * loader knowing any protocol: the name of {@code service:}, the predictors its farms may use (IOS
 * SLB's restrictions: GPRS load balancing without cause-code inspection and the Home Agent Director
 * accept only weighted round robin, ASN refuses least connections), the sticky key kinds it can
 * extract (in the order errors list them; empty: the service does not support sticky), the
 * transport it listens on (two servers may share an address and port on different transports), and
 * the binder of its virtual servers' own keys, if it has any.
 */
public record ServiceSpec(String name, Set<PredictorKind> predictors, List<StickyKind> stickyKinds,
        Transport transport, Optional<OptionsBinder> options) {

    /** What a service's listener receives. */
    public enum Transport {
        UDP, TCP;

        /** {@code udp} or {@code tcp}, as in {@code 127.0.0.1:53/udp}. */
        public String configName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public ServiceSpec {
        Objects.requireNonNull(name, "name");
        predictors = predictors.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(predictors));
        stickyKinds = List.copyOf(stickyKinds);
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(options, "options");
    }

    /** A service without options of its own. */
    public ServiceSpec(String name, Set<PredictorKind> predictors, List<StickyKind> stickyKinds, Transport transport) {
        this(name, predictors, stickyKinds, transport, Optional.empty());
    }

    /** This service, whose virtual servers' own keys {@code binder} reads. */
    public ServiceSpec withOptions(OptionsBinder binder) {
        return new ServiceSpec(name, predictors, stickyKinds, transport, Optional.of(binder));
    }

    /** A datagram service. */
    public static ServiceSpec udp(String name, Set<PredictorKind> predictors, StickyKind... stickyKinds) {
        return new ServiceSpec(name, predictors, List.of(stickyKinds), Transport.UDP);
    }

    public boolean allows(PredictorKind predictor) {
        return predictors.contains(predictor);
    }

    /** The allowed predictors in their declaration order ({@link PredictorKind}'s). */
    public List<PredictorKind> allowedPredictors() {
        return predictors.isEmpty() ? List.of() : List.copyOf(EnumSet.copyOf(predictors));
    }

    public boolean allows(StickyKind key) {
        return stickyKinds.contains(key);
    }
}
