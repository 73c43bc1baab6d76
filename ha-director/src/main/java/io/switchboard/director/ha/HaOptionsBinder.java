package io.switchboard.director.ha;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.OptionsBinder;
import java.util.List;
import java.util.Optional;

/** The {@code ipmobile:} key of a Home Agent Director virtual server: {@code relay-replies}, {@code rewrite-home-agent}. */
public final class HaOptionsBinder implements OptionsBinder {

    static final Schema IPMOBILE = Schema.of("the Mobile IP settings of an `ipmobile` virtual server",
            Key.bool("relay-replies").defaultValue(HaOptions.DEFAULT.relayReplies()).note("`true`: the director waits"
                    + " for each Registration Reply, matches it to its request and relays it from the virtual address;"
                    + " `false`: requests are forwarded and forgotten, as IOS did (home-agent.md)."),
            Key.bool("rewrite-home-agent").defaultValue(HaOptions.DEFAULT.rewriteHomeAgent()).note("`true`: the Home"
                    + " Agent field of a forwarded request is rewritten to the chosen agent's address, and back in the"
                    + " relayed reply; breaks the MN-HA authenticator both ways (RFC 5944 §3.5.1)."));

    private static final List<Key> DECLARATION = List.of(Key.mapping("ipmobile", IPMOBILE).byDefault("the defaults below")
            .note("Only for `service: ipmobile` (home-agent.md)."));

    @Override
    public List<Key> declaration() {
        return DECLARATION;
    }

    @Override
    public Optional<ServiceOptions> bind(Section virtualServer) {
        if (!virtualServer.has("ipmobile")) {
            return Optional.of(HaOptions.DEFAULT);
        }
        Optional<Section> section = virtualServer.section("ipmobile");
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
