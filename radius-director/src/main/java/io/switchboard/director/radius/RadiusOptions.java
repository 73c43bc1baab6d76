package io.switchboard.director.radius;

import io.switchboard.director.config.ServiceOptions;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of a {@code service: radius} virtual server: its known clients ({@code clients:}) and
 * the {@code radius:} block.
 *
 * @param clients    the clients (NAS, GGSN/PGW) allowed to send, each with its shared secret; the
 *                   entry with the longest matching prefix applies
 * @param framedIp   the Framed-IP-Address table
 * @param stateIdle  how long an Access-Challenge's State is remembered so that the next round of the
 *                   conversation goes to the real that issued it
 * @param upstreamSockets how many director sockets each event loop may open toward the reals, each
 *                   with 256 identifiers per real (opened as identifiers run out)
 * @param accountingOnOffToAllReals an Accounting-On/Off goes to every real of the farm (the first
 *                   answer is relayed), else to one real like any request
 */
public record RadiusOptions(List<Client> clients, FramedIp framedIp, Duration stateIdle,
        Optional<VsaCorrelation> vsaCorrelation, int upstreamSockets, boolean accountingOnOffToAllReals)
        implements ServiceOptions {

    public static final Duration DEFAULT_STATE_IDLE = Duration.ofMinutes(2);
    /** 64 sockets of 256 identifiers: 16,384 requests outstanding per real and event loop. */
    public static final int DEFAULT_UPSTREAM_SOCKETS = 64;
    public static final int MAX_UPSTREAM_SOCKETS = 1024;

    public RadiusOptions {
        clients = List.copyOf(clients);
        Objects.requireNonNull(framedIp, "framedIp");
        Objects.requireNonNull(stateIdle, "stateIdle");
        vsaCorrelation = vsaCorrelation == null ? Optional.empty() : vsaCorrelation;
        if (upstreamSockets < 1 || upstreamSockets > MAX_UPSTREAM_SOCKETS) {
            throw new IllegalArgumentException("upstream sockets 1.." + MAX_UPSTREAM_SOCKETS + ": " + upstreamSockets);
        }
    }

    /** Upstream sockets and Accounting-On/Off at their defaults. */
    public RadiusOptions(List<Client> clients, FramedIp framedIp, Duration stateIdle,
            Optional<VsaCorrelation> vsaCorrelation) {
        this(clients, framedIp, stateIdle, vsaCorrelation, DEFAULT_UPSTREAM_SOCKETS, true);
    }

    /** These options with at most {@code sockets} upstream sockets per event loop. */
    public RadiusOptions withUpstreamSockets(int sockets) {
        return new RadiusOptions(clients, framedIp, stateIdle, vsaCorrelation, sockets,
                accountingOnOffToAllReals);
    }

    /** Without VSA correlation. */
    public RadiusOptions(List<Client> clients, FramedIp framedIp, Duration stateIdle) {
        this(clients, framedIp, stateIdle, Optional.empty());
    }

    /**
     * VSA correlation: the vendor sub-attribute {@code vendorType} of {@code vendorId}, seen in a
     * subscriber's Access-Request or Access-Accept, is remembered for {@code hold} and added to that
     * subscriber's Accounting-Start (when it lacks one), which is then re-signed. The subscriber is
     * the request's sticky key; virtual servers share what they remember through their sticky group.
     */
    public record VsaCorrelation(int vendorId, int vendorType, Duration hold) {

        public VsaCorrelation {
            if (vendorType < 0 || vendorType > 255) {
                throw new IllegalArgumentException("vendor type 0..255: " + vendorType);
            }
            Objects.requireNonNull(hold, "hold");
        }
    }

    /** Clients only, everything else at its default. */
    public RadiusOptions(List<Client> clients) {
        this(clients, FramedIp.DEFAULT, DEFAULT_STATE_IDLE);
    }

    /**
     * A known client network and its shared secret.
     *
     * @param network    the network address (host bits zero) or a single address
     * @param prefixBits 32 (IPv4) or 128 (IPv6) for a single address
     */
    public record Client(InetAddress network, int prefixBits, String secret) {

        public Client {
            Objects.requireNonNull(network, "network");
            Objects.requireNonNull(secret, "secret");
            if (prefixBits < 0 || prefixBits > network.getAddress().length * 8) {
                throw new IllegalArgumentException("prefix /" + prefixBits + " for " + network.getHostAddress());
            }
        }

        public byte[] secretBytes() {
            return secret.getBytes(StandardCharsets.UTF_8);
        }

        /** Whether {@code address} lies in this client's network. */
        public boolean matches(InetAddress address) {
            byte[] a = address.getAddress();
            byte[] n = network.getAddress();
            if (a.length != n.length) {
                return false;
            }
            int bits = prefixBits;
            for (int i = 0; i < a.length && bits > 0; i++, bits -= 8) {
                int mask = bits >= 8 ? 0xff : (0xff00 >> bits) & 0xff;
                if (((a[i] ^ n[i]) & mask) != 0) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            return "Client[" + network.getHostAddress() + "/" + prefixBits + ", secret=***]";
        }
    }

    /**
     * The Framed-IP-Address table (sticky key kind {@code framed-ip}, kept in the virtual server's
     * sticky table or its group's).
     *
     * @param learn                  bind a Framed-IP-Address to the real that acknowledged an
     *                               Accounting-Start (or Interim-Update) carrying it, or that sent an
     *                               Access-Accept carrying it
     * @param purgeOnStop            remove the binding when an Accounting-Stop for it is acknowledged
     * @param purgeOnAccountingOnOff remove every binding learned from a client when that client sends
     *                               Accounting-On or Accounting-Off (it rebooted: its sessions are gone)
     */
    public record FramedIp(boolean learn, boolean purgeOnStop, boolean purgeOnAccountingOnOff) {

        public static final FramedIp DEFAULT = new FramedIp(true, true, true);
    }
}
