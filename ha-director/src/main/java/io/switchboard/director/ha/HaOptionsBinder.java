package io.switchboard.director.ha;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.OptionsBinder;
import java.util.List;
import java.util.Optional;

/** The {@code ipmobile:} key of a Home Agent Director virtual server: {@code relay-replies}, {@code rewrite-home-agent}. */
public final class HaOptionsBinder implements OptionsBinder {

    static final List<String> KEYS = List.of("relay-replies", "rewrite-home-agent");

    @Override
    public List<String> keys() {
        return List.of("ipmobile");
    }

    @Override
    public Optional<ServiceOptions> bind(Section virtualServer) {
        if (!virtualServer.has("ipmobile")) {
            return Optional.of(HaOptions.DEFAULT);
        }
        Optional<Section> section = virtualServer.section("ipmobile", KEYS);
        if (section.isEmpty()) {
            return Optional.empty();
        }
        Section s = section.get();
        boolean ok = true;
        boolean relay = HaOptions.DEFAULT.relayReplies();
        boolean rewrite = HaOptions.DEFAULT.rewriteHomeAgent();
        if (s.has("relay-replies")) {
            Optional<Boolean> b = s.bool("relay-replies");
            ok &= b.isPresent();
            relay = b.orElse(relay);
        }
        if (s.has("rewrite-home-agent")) {
            Optional<Boolean> b = s.bool("rewrite-home-agent");
            ok &= b.isPresent();
            rewrite = b.orElse(rewrite);
        }
        return ok ? Optional.of(new HaOptions(relay, rewrite)) : Optional.empty();
    }
}
