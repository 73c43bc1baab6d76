package io.switchboard.director.radius;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.IosSlbOptions;
import io.switchboard.director.spi.IosSlbServer;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The options of {@code radius} virtual servers in IOS SLB: the {@code client} lines are the RADIUS
 * clients (every address when there are none), all with the one shared secret the import is given,
 * and the {@code purge radius framed-ip acct} lines the Framed-IP purges; {@code radius acct local-ack
 * key K} is {@code radius.accounting-local-ack} (the director's acknowledgment is signed with the
 * client's secret: K, unless {@code --radius-secret} gives another, which must then be the NAS's). IOS
 * SLB relays RADIUS without the clients' secrets, which Switchboard needs to verify each request.
 */
public final class RadiusIosOptions implements IosSlbOptions {

    /** {@code 0.0.0.0}, with prefix 0 every client, when the virtual server lists none. */
    private static final InetAddress ANY;

    static {
        try {
            ANY = InetAddress.getByAddress(new byte[4]);
        } catch (java.net.UnknownHostException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public List<String> services() {
        return List.of("radius");
    }

    @Override
    public ServiceOptions fromIos(IosSlbServer vs) {
        String secret = vs.sharedSecret().orElseThrow(() -> vs.virtual().error(0, "virtual server " + vs.name()
                + " (service radius): Switchboard checks each RADIUS client's shared secret, which an IOS SLB"
                + " configuration does not hold; give it with --radius-secret"));
        List<RadiusOptions.Client> clients = new ArrayList<>();
        for (int i = 0; i < vs.clients().size(); i++) {
            Subnet s = vs.clients().get(i).subnet();
            clients.add(new RadiusOptions.Client(s.network(), s.prefixLength(), secret));
            vs.clients().get(i).line().translated(List.of(vs.path("clients[" + i + "]")));
        }
        if (clients.isEmpty()) {
            clients.add(new RadiusOptions.Client(ANY, 0, secret));
        }
        boolean purgeOnStop = true;
        boolean purgeOnOnOff = true;
        for (IosSlbServer.Purge purge : vs.purges()) {
            if (purge.onStop()) {
                purgeOnStop = purge.enabled();
            } else {
                purgeOnOnOff = purge.enabled();
            }
            purge.line().translated(List.of(vs.path(purge.onStop() ? "radius.framed-ip.purge-on-stop"
                    : "radius.framed-ip.purge-on-accounting-on-off")));
        }
        RadiusOptions.FramedIp framedIp = new RadiusOptions.FramedIp(true, purgeOnStop, purgeOnOnOff);
        vs.localAck().ifPresent(a -> a.line().translated(List.of(vs.path("radius.accounting-local-ack"))));
        return new RadiusOptions(clients, framedIp, RadiusOptions.DEFAULT_STATE_IDLE, Optional.empty(),
                RadiusOptions.DEFAULT_UPSTREAM_SOCKETS, true).withAccountingLocalAck(vs.localAck().isPresent());
    }

    @Override
    public void writeYaml(ServiceOptions options, Yaml m, String path) {
        if (!(options instanceof RadiusOptions r)) {
            return;
        }
        List<Yaml> clients = m.mappings("clients", r.clients().size(),
                "the shared secret: IOS SLB configurations hold none");
        for (int i = 0; i < r.clients().size(); i++) {
            RadiusOptions.Client c = r.clients().get(i);
            clients.get(i).text("subnet", c.network().getHostAddress() + "/" + c.prefixBits(),
                    m.cite(path + ".clients[" + i + "]")).text("secret", c.secret(), null);
        }
        Yaml radius = m.mapping("radius", null);
        Yaml framed = radius.mapping("framed-ip", null);
        String p = path + ".radius.framed-ip";
        framed.bool("learn", r.framedIp().learn(), m.cite(p + ".learn"));
        framed.bool("purge-on-stop", r.framedIp().purgeOnStop(), m.cite(p + ".purge-on-stop"));
        framed.bool("purge-on-accounting-on-off", r.framedIp().purgeOnAccountingOnOff(),
                m.cite(p + ".purge-on-accounting-on-off"));
        if (r.accountingLocalAck()) {
            radius.bool("accounting-local-ack", true,
                    m.cite(path + ".radius.accounting-local-ack"));
        }
    }

    @Override
    public void writeIos(ServiceOptions options, VirtualServerConfig vs, Ios out) {
        if (!(options instanceof RadiusOptions r)) {
            return;
        }
        // The catch-all client (prefix 0) is what no client line says.
        r.clients().stream().filter(c -> c.prefixBits() > 0).forEach(c -> out.client(new Subnet(c.network(),
                c.prefixBits())));
        out.line("! clients' shared secrets have no IOS form: give --radius-secret when importing");
        if (!r.framedIp().learn()) {
            out.line("! radius.framed-ip.learn false has no IOS form");
        }
        if (!r.framedIp().purgeOnStop()) {
            out.line("no purge radius framed-ip acct stop");
        }
        if (!r.framedIp().purgeOnAccountingOnOff()) {
            out.line("no purge radius framed-ip acct on-off");
        }
        if (r.accountingLocalAck() && !r.clients().isEmpty()) {
            // IOS signs its acknowledgment with the key; Switchboard with the client's secret.
            out.line("radius acct local-ack key " + r.clients().get(0).secret());
        }
    }
}
