package io.switchboard.director.radius;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.radius.radsec.RadsecOptions;
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
 * @param duplicates the response cache that answers a client's retransmission of an answered request
 * @param statusServer how a Status-Server sent to the virtual server is answered ({@link StatusServer})
 * @param daeSessions the sessions learnt from accounting for Dynamic Authorization ({@code radius-dae}), if any
 * @param radsec     RADIUS over TLS toward clients and reals (RFC 6614), if configured
 * @param accountingLocalAck the director answers each Accounting-Request itself, signed with the
 *                   client's secret, once it has forwarded it, and absorbs the real's answer
 *                   (IOS {@code radius acct local-ack key}; {@link LocalAck})
 */
public record RadiusOptions(List<Client> clients, FramedIp framedIp, Duration stateIdle,
        Optional<VsaCorrelation> vsaCorrelation, int upstreamSockets, boolean accountingOnOffToAllReals,
        Duplicates duplicates, StatusServerPort statusServer, Optional<DaeSessions> daeSessions,
        Optional<RadsecOptions> radsec, boolean accountingLocalAck) implements ServiceOptions {

    public static final Duration DEFAULT_STATE_IDLE = Duration.ofMinutes(2);
    /** 64 sockets of 256 identifiers: 16,384 requests outstanding per real and event loop. */
    public static final int DEFAULT_UPSTREAM_SOCKETS = 64;
    public static final int MAX_UPSTREAM_SOCKETS = 1024;
    /**
     * {@code require-message-authenticator} and {@code limit-proxy-state} of a client or real that
     * names none: FreeRADIUS 3.2.5's {@code auto} for both.
     */
    public static final Tristate DEFAULT_REQUIRE = Tristate.AUTO;
    public static final Tristate DEFAULT_LIMIT_PROXY_STATE = Tristate.AUTO;

    public RadiusOptions {
        clients = List.copyOf(clients);
        Objects.requireNonNull(framedIp, "framedIp");
        Objects.requireNonNull(stateIdle, "stateIdle");
        vsaCorrelation = vsaCorrelation == null ? Optional.empty() : vsaCorrelation;
        Objects.requireNonNull(duplicates, "duplicates");
        Objects.requireNonNull(statusServer, "statusServer");
        daeSessions = daeSessions == null ? Optional.empty() : daeSessions;
        radsec = radsec == null ? Optional.empty() : radsec;
        if (upstreamSockets < 1 || upstreamSockets > MAX_UPSTREAM_SOCKETS) {
            throw new IllegalArgumentException("upstream sockets 1.." + MAX_UPSTREAM_SOCKETS + ": " + upstreamSockets);
        }
    }

    /** Accounting-Requests answered by the real only (no {@code accounting-local-ack}). */
    public RadiusOptions(List<Client> clients, FramedIp framedIp, Duration stateIdle,
            Optional<VsaCorrelation> vsaCorrelation, int upstreamSockets, boolean accountingOnOffToAllReals,
            Duplicates duplicates, StatusServerPort statusServer, Optional<DaeSessions> daeSessions,
            Optional<RadsecOptions> radsec) {
        this(clients, framedIp, stateIdle, vsaCorrelation, upstreamSockets, accountingOnOffToAllReals, duplicates,
                statusServer, daeSessions, radsec, false);
    }

    /** These options with the director acknowledging Accounting-Requests itself, or not. */
    public RadiusOptions withAccountingLocalAck(boolean localAck) {
        return new RadiusOptions(clients, framedIp, stateIdle, vsaCorrelation, upstreamSockets,
                accountingOnOffToAllReals, duplicates, statusServer, daeSessions, radsec, localAck);
    }

    /** Status-Server answered as the listen port says ({@link StatusServerPort#AUTO}), no Dynamic Authorization sessions. */
    public RadiusOptions(List<Client> clients, FramedIp framedIp, Duration stateIdle,
            Optional<VsaCorrelation> vsaCorrelation, int upstreamSockets, boolean accountingOnOffToAllReals,
            Duplicates duplicates) {
        this(clients, framedIp, stateIdle, vsaCorrelation, upstreamSockets, accountingOnOffToAllReals, duplicates,
                StatusServerPort.AUTO, Optional.empty(), Optional.empty());
    }

    /** These options with RADIUS over TLS. */
    public RadiusOptions withRadsec(RadsecOptions tls) {
        return new RadiusOptions(clients, framedIp, stateIdle, vsaCorrelation, upstreamSockets,
                accountingOnOffToAllReals, duplicates, statusServer, daeSessions, Optional.of(tls), accountingLocalAck);
    }

    /** These options with another answer to Status-Server. */
    public RadiusOptions withStatusServer(StatusServerPort port) {
        return new RadiusOptions(clients, framedIp, stateIdle, vsaCorrelation, upstreamSockets,
                accountingOnOffToAllReals, duplicates, port, daeSessions, radsec, accountingLocalAck);
    }

    /**
     * {@code status-server:} what kind of port the virtual server is, which decides the answer to a
     * Status-Server sent to it (RFC 5997): {@code access} an Access-Accept, {@code accounting} an
     * Accounting-Response, {@code off} none (discarded, as a server without RFC 5997 does); {@code auto},
     * the default, reads the listen port: 1813 (and 1646, its pre-RFC 2866 number) are accounting, any
     * other is access. A virtual server takes both kinds of request on one port, so only this says.
     */
    public enum StatusServerPort {
        AUTO, ACCESS, ACCOUNTING, OFF;

        /** ACCESS, ACCOUNTING or OFF for a virtual server listening on {@code port}. */
        public StatusServerPort resolve(int port) {
            return this != AUTO ? this : port == 1813 || port == 1646 ? ACCOUNTING : ACCESS;
        }

        /** As written in a configuration file. */
        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    // ---- end radius-status ----

    // ---- Dynamic Authorization (issue 20 point 3) ----

    /** These options learning the NAS of each session for Dynamic Authorization. */
    public RadiusOptions withDaeSessions(DaeSessions sessions) {
        return new RadiusOptions(clients, framedIp, stateIdle, vsaCorrelation, upstreamSockets,
                accountingOnOffToAllReals, duplicates, statusServer, Optional.of(sessions), radsec, accountingLocalAck);
    }

    /**
     * {@code radius: {dae-sessions: ...}}: each Accounting-Start and Interim-Update teaches the NAS of
     * its session, each Stop forgets it, in the table a {@code radius-dae} virtual server routes CoA- and
     * Disconnect-Requests by (RFC 5176). The table is the virtual server's sticky group's (or its own name's).
     *
     * @param hold how long a session is remembered after its last Start or Interim-Update (its Stop may be lost)
     */
    public record DaeSessions(Duration hold) {

        public static final Duration DEFAULT_HOLD = Duration.ofHours(24);

        public DaeSessions {
            Objects.requireNonNull(hold, "hold");
        }
    }

    // ---- end of Dynamic Authorization ----

    /** The response cache at its defaults. */
    public RadiusOptions(List<Client> clients, FramedIp framedIp, Duration stateIdle,
            Optional<VsaCorrelation> vsaCorrelation, int upstreamSockets, boolean accountingOnOffToAllReals) {
        this(clients, framedIp, stateIdle, vsaCorrelation, upstreamSockets, accountingOnOffToAllReals,
                Duplicates.DEFAULT);
    }

    /** Upstream sockets and Accounting-On/Off at their defaults. */
    public RadiusOptions(List<Client> clients, FramedIp framedIp, Duration stateIdle,
            Optional<VsaCorrelation> vsaCorrelation) {
        this(clients, framedIp, stateIdle, vsaCorrelation, DEFAULT_UPSTREAM_SOCKETS, true);
    }

    /** These options with at most {@code sockets} upstream sockets per event loop. */
    public RadiusOptions withUpstreamSockets(int sockets) {
        return new RadiusOptions(clients, framedIp, stateIdle, vsaCorrelation, sockets,
                accountingOnOffToAllReals, duplicates, statusServer, daeSessions, radsec, accountingLocalAck);
    }

    /** These options with another response cache. */
    public RadiusOptions withDuplicates(Duplicates cache) {
        return new RadiusOptions(clients, framedIp, stateIdle, vsaCorrelation, upstreamSockets,
                accountingOnOffToAllReals, cache, statusServer, daeSessions, radsec, accountingLocalAck);
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

        /** How long a seen value is kept when the configuration does not say. */
        public static final Duration DEFAULT_HOLD = Duration.ofHours(1);

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
     * {@code true}, {@code false} or {@code auto} (FreeRADIUS's {@code yes}, {@code no}, {@code auto}):
     * a BlastRADIUS defence that is on, off, or turned on by what the peer shows it can do
     * ({@link MessageAuthenticatorPolicy}).
     */
    public enum Tristate {
        ON, OFF, AUTO;

        /** As written in a configuration file. */
        public String text() {
            return this == ON ? "true" : this == OFF ? "false" : "auto";
        }
    }

    /**
     * A known client network and its shared secret.
     *
     * @param network    the network address (host bits zero) or a single address
     * @param prefixBits 32 (IPv4) or 128 (IPv6) for a single address
     * @param requireMessageAuthenticator whether its Access-Requests must carry a Message-Authenticator
     * @param limitProxyState whether an Access-Request with Proxy-State must carry one
     * @param certificateName the name its RadSec certificate carries, when RadSec peers are identified
     *                   by certificate ({@link RadsecOptions.Identify#CERTIFICATE})
     */
    public record Client(InetAddress network, int prefixBits, String secret, Tristate requireMessageAuthenticator,
            Tristate limitProxyState, Optional<String> certificateName) {

        public Client {
            Objects.requireNonNull(network, "network");
            Objects.requireNonNull(secret, "secret");
            Objects.requireNonNull(requireMessageAuthenticator, "requireMessageAuthenticator");
            Objects.requireNonNull(limitProxyState, "limitProxyState");
            certificateName = certificateName == null ? Optional.empty() : certificateName;
            if (prefixBits < 0 || prefixBits > network.getAddress().length * 8) {
                throw new IllegalArgumentException("prefix /" + prefixBits + " for " + network.getHostAddress());
            }
        }

        /** Without a certificate name. */
        public Client(InetAddress network, int prefixBits, String secret, Tristate requireMessageAuthenticator,
                Tristate limitProxyState) {
            this(network, prefixBits, secret, requireMessageAuthenticator, limitProxyState, Optional.empty());
        }

        /** The BlastRADIUS defences at their defaults ({@link #DEFAULT_REQUIRE}, {@link #DEFAULT_LIMIT_PROXY_STATE}). */
        public Client(InetAddress network, int prefixBits, String secret) {
            this(network, prefixBits, secret, DEFAULT_REQUIRE, DEFAULT_LIMIT_PROXY_STATE);
        }

        /** This client with other BlastRADIUS defences. */
        public Client withDefences(Tristate require, Tristate limit) {
            return new Client(network, prefixBits, secret, require, limit, certificateName);
        }

        /** {@code ADDRESS/BITS}, for logs. */
        public String label() {
            return network.getHostAddress() + "/" + prefixBits;
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
            return "Client[" + label() + ", secret=***, require-message-authenticator="
                    + requireMessageAuthenticator.text() + ", limit-proxy-state=" + limitProxyState.text()
                + certificateName.map(n -> ", certificate-name=" + n).orElse("") + "]";
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

    /**
     * The response cache of RFC 5080 §2.2.2: a client's retransmission (same address, port, identifier
     * and Request Authenticator) of a request already answered gets the same answer again, from the
     * cache, instead of going to a real a second time.
     *
     * @param cacheTime  how long an answer is kept: RFC 5080 §2.2.2 asks for 5 to 30 seconds
     *                   (FreeRADIUS's {@code cleanup_delay} is 5)
     * @param maxEntries at most this many answers are kept (rounded up to a power of two; 0: no cache).
     *                   Each is kept whole (at most 4096 octets, RFC 2865 §3)
     */
    public record Duplicates(Duration cacheTime, int maxEntries) {

        public static final Duration DEFAULT_CACHE_TIME = Duration.ofSeconds(5);
        public static final int DEFAULT_MAX_ENTRIES = 65_536;
        public static final int MAX_ENTRIES = 1 << 22;
        public static final Duplicates DEFAULT = new Duplicates(DEFAULT_CACHE_TIME, DEFAULT_MAX_ENTRIES);

        public Duplicates {
            Objects.requireNonNull(cacheTime, "cacheTime");
            if (cacheTime.isNegative() || cacheTime.isZero()) {
                throw new IllegalArgumentException("cache time must be positive: " + cacheTime);
            }
            if (maxEntries < 0 || maxEntries > MAX_ENTRIES) {
                throw new IllegalArgumentException("max entries 0.." + MAX_ENTRIES + ": " + maxEntries);
            }
        }
    }
}
