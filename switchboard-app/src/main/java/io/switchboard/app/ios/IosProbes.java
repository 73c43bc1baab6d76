package io.switchboard.app.ios;

import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code ip slb probe NAME TYPE} and its mode into a {@link ProbeConfig}. Ping, TCP, HTTP and
 * custom UDP probes translate; DNS (the query name is not part of the IOS configuration) and WSP
 * probes are unsupported, and so is what Switchboard's probes cannot do (routed probes to another
 * address, HTTP credentials and methods other than GET).
 */
final class IosProbes {

    /** IOS probe defaults where they differ from Switchboard's: a ping probe fails after 10 misses (C4). */
    static final int IOS_PING_FAILURES = 10;

    private final IosLedger ledger;

    IosProbes(IosLedger ledger) {
        this.ledger = ledger;
    }

    /** The probe, or empty when IOS SLB's probe type has no Switchboard equivalent (reported). */
    Optional<ProbeConfig> read(IosCommand probe) {
        String name = IosValues.name(probe, 0, "the probe name");
        String path = "probes." + name;
        if (probe.isKeyword(1, "dns") || probe.isKeyword(1, "wsp")) {
            IosTranslator.unsupportedWithChildren(ledger, probe, probe.arg(1).toLowerCase(Locale.ROOT)
                    + " probes (" + (probe.isKeyword(1, "dns") ? "the name a DNS probe asks for is not in the IOS"
                    + " configuration: write probes." + name + " by hand with type: dns" : "WAP's WSP") + ")");
            return Optional.empty();
        }
        String type;
        if (probe.isKeyword(1, "ping")) {
            type = "ping";
        } else if (probe.isKeyword(1, "tcp")) {
            type = "tcp";
        } else if (probe.isKeyword(1, "http")) {
            type = "http";
        } else if (probe.isKeyword(1, "custom") && probe.isKeyword(2, "udp")) {
            type = "udp";
        } else {
            throw probe.error(1, "probe type must be ping, http, tcp, dns, custom udp or wsp");
        }
        ledger.translated(probe, path + ".type");
        Duration interval = ProbeConfig.DEFAULT_INTERVAL;
        Duration timeout = ProbeConfig.DEFAULT_TIMEOUT;
        int failures = type.equals("ping") ? IOS_PING_FAILURES : ProbeConfig.DEFAULT_FAILURES;
        OptionalInt port = OptionalInt.empty();
        String httpPath = "/";
        int expectStatus = 200;
        Optional<String> host = Optional.empty();
        ByteArrayOutputStream send = new ByteArrayOutputStream();
        byte[] expect = new byte[0];
        for (IosCommand c : probe.children()) {
            switch (c.keyword()) {
                case "interval" -> {
                    interval = Duration.ofSeconds(IosValues.integer(c, 0, 1, 65535));
                    ledger.translated(c, path + ".interval");
                }
                case "timeout" -> {
                    timeout = Duration.ofSeconds(IosValues.integer(c, 0, 1, 65535));
                    ledger.translated(c, path + ".timeout");
                }
                case "faildetect" -> {
                    failures = IosValues.integer(c, 0, 1, 100);
                    ledger.translated(c, path + ".failures");
                }
                case "port" -> {
                    port = OptionalInt.of(IosValues.integer(c, 0, 1, 65535));
                    ledger.translated(c, path + ".port");
                }
                case "expect" -> {
                    if (!type.equals("http") || !c.isKeyword(0, "status")) {
                        throw c.error(0, "expect status N is for HTTP probes");
                    }
                    expectStatus = IosValues.integer(c, 1, 100, 599);
                    ledger.translated(c, path + ".expect-status");
                }
                case "header" -> {
                    if (type.equals("http") && c.hasArg(1) && c.arg(0).equalsIgnoreCase("host")) {
                        host = Optional.of(c.arg(1));
                        ledger.translated(c, path + ".host");
                    } else {
                        ledger.unsupported(c, "HTTP probe headers other than Host");
                    }
                }
                case "request" -> {
                    if (type.equals("http")) {
                        Optional<String> url = httpRequest(c);
                        if (url.isPresent()) {
                            httpPath = url.get();
                            ledger.translated(c, path + ".path");
                        }
                    } else if (type.equals("udp") && c.isKeyword(0, "data")) {
                        at(send, IosValues.integer(c, 1, 0, 65507), hex(c, 2));
                        ledger.translated(c, path + ".send");
                    } else {
                        throw c.error(0, "request is 'request method get url PATH' (HTTP) or 'request data"
                                + " START HEX' (custom UDP)");
                    }
                }
                case "response" -> {
                    if (!type.equals("udp") || !c.isKeyword(1, "data")) {
                        throw c.error(0, "response is 'response CLAUSE data START HEX' (custom UDP probes)");
                    }
                    int clause = IosValues.integer(c, 0, 1, 8);
                    if (clause != 1 || IosValues.integer(c, 2, 0, 65507) != 0) {
                        ledger.unsupported(c, "custom UDP response clauses other than clause 1 at byte 0"
                                + " (Switchboard checks that the answer starts with the expected bytes)");
                    } else {
                        expect = hex(c, 3);
                        ledger.translated(c, path + ".expect");
                    }
                }
                case "address" -> ledger.unsupported(c, "routed probes (probes sent to another address than the"
                        + " real's)");
                case "credentials" -> ledger.unsupported(c, "HTTP probe credentials");
                case "lookup" -> ledger.unsupported(c, "lookup outside a DNS probe");
                default -> ledger.ignored(c, "a description");
            }
        }
        ProbeCheck check = switch (type) {
            case "ping" -> new ProbeCheck.Ping();
            case "tcp" -> new ProbeCheck.TcpConnect();
            case "http" -> new ProbeCheck.Http(httpPath, expectStatus, host);
            default -> {
                if (send.size() == 0) {
                    throw probe.error(0, "custom udp probe " + name + " has no 'request data START HEX'");
                }
                yield new ProbeCheck.Udp(send.toByteArray(), expect);
            }
        };
        return Optional.of(new ProbeConfig(name, check, interval, timeout, failures, port));
    }

    /** {@code request method get url /path}: the path; other methods are reported unsupported. */
    private Optional<String> httpRequest(IosCommand c) {
        String url = null;
        for (int i = 0; i + 1 < c.argCount(); i += 2) {
            if (c.isKeyword(i, "method")) {
                if (!c.arg(i + 1).equalsIgnoreCase("get")) {
                    ledger.unsupported(c, "HTTP probe method " + c.arg(i + 1) + " (Switchboard's HTTP probe sends GET)");
                    return Optional.empty();
                }
            } else if (c.isKeyword(i, "url")) {
                url = c.arg(i + 1);
            } else {
                throw c.error(i, "expected method or url");
            }
        }
        if (url == null) {
            throw c.error(c.argCount(), "request needs url PATH");
        }
        return Optional.of(url);
    }

    /** The hex digits of arguments {@code from..}, joined. */
    private static byte[] hex(IosCommand c, int from) {
        StringBuilder digits = new StringBuilder();
        for (int i = from; i < c.argCount(); i++) {
            digits.append(c.arg(i));
        }
        try {
            byte[] bytes = HexFormat.of().parseHex(digits);
            if (bytes.length == 0) {
                throw c.error(from, "hex data is missing");
            }
            return bytes;
        } catch (IllegalArgumentException e) {
            throw c.error(from, "hex data must be an even number of hex digits");
        }
    }

    private static void at(ByteArrayOutputStream out, int offset, byte[] bytes) {
        byte[] current = out.toByteArray();
        byte[] merged = java.util.Arrays.copyOf(current, Math.max(current.length, offset + bytes.length));
        System.arraycopy(bytes, 0, merged, offset, bytes.length);
        out.reset();
        out.writeBytes(merged);
    }
}
