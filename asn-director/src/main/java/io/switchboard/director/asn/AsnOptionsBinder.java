package io.switchboard.director.asn;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.OptionsBinder;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The {@code asn:} key of an ASN virtual server: {@code nwg-release}, {@code relay-responses}. */
public final class AsnOptionsBinder implements OptionsBinder {

    /** Release names as written in the configuration (NWG R1.0 vX.Y.Z). */
    static final Map<String, NwgRelease> RELEASES = new java.util.TreeMap<>(Map.of(
            "1.0.0", NwgRelease.R1_0_V1_0_0,
            "1.2.0", NwgRelease.R1_0_V1_2_0,
            "1.2.1", NwgRelease.R1_0_V1_2_1));

    static final Schema ASN = Schema.of("the ASN settings of an `asn` virtual server",
            Key.oneOf("nwg-release", List.copyOf(RELEASES.keySet())).defaultValue(releaseName(AsnOptions.DEFAULT.release()))
                    .note("WiMAX Forum NWG R1.0 release: MS_PreAttachment Req/Rsp/Ack are message types 6/7/8 in 1.0.0"
                            + " and 1/2/3 from 1.2.0 on; nothing on the wire says which one a peer speaks."),
            Key.bool("relay-responses").defaultValue(AsnOptions.DEFAULT.relayResponses()).note("`false` (IOS): the"
                    + " gateway answers the base station directly; `true`: it answers the director, which relays the"
                    + " response from the virtual address."));

    private static final List<Key> DECLARATION = List.of(Key.mapping("asn", ASN).byDefault("the defaults below")
            .note("Only for `service: asn` (asn.md)."));

    @Override
    public List<Key> declaration() {
        return DECLARATION;
    }

    private static String releaseName(NwgRelease release) {
        return RELEASES.entrySet().stream().filter(e -> e.getValue() == release).findFirst().orElseThrow().getKey();
    }

    @Override
    public Optional<ServiceOptions> bind(Section virtualServer) {
        if (!virtualServer.has("asn")) {
            return Optional.of(AsnOptions.DEFAULT);
        }
        Optional<Section> section = virtualServer.section("asn");
        if (section.isEmpty()) {
            return Optional.empty();
        }
        Section s = section.get();
        boolean ok = true;
        NwgRelease release = AsnOptions.DEFAULT.release();
        boolean relay = AsnOptions.DEFAULT.relayResponses();
        if (s.has("nwg-release")) {
            Optional<String> text = s.string("nwg-release");
            NwgRelease r = text.map(RELEASES::get).orElse(null);
            if (r == null) {
                if (text.isPresent()) {
                    s.error(s.pathOf("nwg-release"), "must be one of 1.0.0, 1.2.0, 1.2.1 (NWG R1.0 release), not '"
                            + text.get() + "'");
                }
                ok = false;
            } else {
                release = r;
            }
        }
        if (s.has("relay-responses")) {
            Optional<Boolean> b = s.bool("relay-responses");
            ok &= b.isPresent();
            relay = b.orElse(relay);
        }
        return ok ? Optional.of(new AsnOptions(release, relay)) : Optional.empty();
    }
}
