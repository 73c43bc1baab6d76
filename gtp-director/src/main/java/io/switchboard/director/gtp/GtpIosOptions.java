package io.switchboard.director.gtp;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.IosSlbOptions;
import io.switchboard.director.spi.IosSlbServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The {@code gtp:} options of {@code gtp} and {@code gtp-inspect} virtual servers in IOS SLB: the
 * port says the version (IOS serves GTPv0 on 3386), {@code gtp notification cac N} the reassign
 * count, and each {@code serverfarm FARM map ID priority N} line an APN map per {@code apn} of map ID.
 */
public final class GtpIosOptions implements IosSlbOptions {

    /** IOS SLB's GTPv0 port (GSM 09.60 §7.1): a virtual server on it serves version 0 only. */
    static final int V0_PORT = 3386;

    @Override
    public List<String> services() {
        return List.of("gtp", "gtp-inspect");
    }

    @Override
    public ServiceOptions fromIos(IosSlbServer vs) {
        GtpOptions d = GtpOptions.DEFAULT;
        Set<Integer> versions = vs.port() == V0_PORT ? Set.of(0) : d.versions();
        int reassign = vs.cac().map(IosSlbServer.Cac::reassign).orElse(d.reassign());
        vs.cac().ifPresent(cac -> cac.line().translated(List.of(vs.path("gtp.reassign"))));
        List<GtpOptions.ApnMap> apnMaps = new ArrayList<>();
        for (IosSlbServer.MapUse use : vs.mapUses()) {
            List<String> apns = use.apns().orElseThrow(() -> use.line().error(2, "no ip slb map " + use.map()
                    + " gtp"));
            List<String> keys = new ArrayList<>();
            for (String apn : apns) {
                keys.add(vs.path("gtp.apn-maps[" + apnMaps.size() + "]"));
                apnMaps.add(new GtpOptions.ApnMap(apn, use.farm(), use.priority()));
            }
            use.line().translated(keys.isEmpty() ? List.of(vs.path("gtp.apn-maps")) : keys);
        }
        if (versions.equals(d.versions()) && reassign == d.reassign() && apnMaps.isEmpty()) {
            return ServiceOptions.NONE;
        }
        return new GtpOptions(versions, reassign, d.resourceCausesV1(), d.resourceCausesV2(), d.carrierCodes(),
                d.v0TidOrder(), d.recovery(), d.recoveryFile(), d.unstickOnDelete(), d.sessionIdle(),
                d.directorAddresses(), apnMaps);
    }

    @Override
    public void writeYaml(ServiceOptions options, Yaml virtualServer, String path) {
        if (!(options instanceof GtpOptions g)) {
            return;
        }
        Yaml m = virtualServer.mapping("gtp", null);
        String p = path + ".gtp";
        m.numbers("versions", g.versions().stream().sorted().toList(), m.cite(p + ".versions"));
        m.number("reassign", g.reassign(), m.cite(p + ".reassign"));
        if (!g.apnMaps().isEmpty()) {
            List<Yaml> maps = m.mappings("apn-maps", g.apnMaps().size(), null);
            for (int i = 0; i < g.apnMaps().size(); i++) {
                GtpOptions.ApnMap map = g.apnMaps().get(i);
                maps.get(i).text("apn", map.apn(), m.cite(p + ".apn-maps[" + i + "]"))
                        .text("farm", map.farm(), null).number("priority", map.priority(), null);
            }
        }
    }

    /** Each APN map is an {@code ip slb map ID gtp} of one {@code apn}, named by a serverfarm line. */
    @Override
    public void writeIos(ServiceOptions options, VirtualServerConfig vs, Ios out) {
        if (!(options instanceof GtpOptions g)) {
            return;
        }
        for (GtpOptions.ApnMap map : g.apnMaps()) {
            int id = out.mapId();
            out.global(0, "ip slb map " + id + " gtp");
            out.global(1, "apn " + map.apn());
            out.line("serverfarm " + map.farm() + " map " + id + " priority " + map.priority());
        }
        if (g.reassign() != GtpOptions.DEFAULT.reassign()) {
            out.line("gtp notification cac " + g.reassign());
        }
        if (g.versions().contains(0) && vs.listen().port() != V0_PORT) {
            out.line("! gtp.versions [0] on a port other than 3386 has no IOS form");
        }
    }
}
