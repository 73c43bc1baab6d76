package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.accountingRequest;
import static io.switchboard.director.radius.RadiusPackets.answer;
import static io.switchboard.director.radius.RadiusPackets.bytes;
import static io.switchboard.director.radius.RadiusPackets.messageAuthenticator;
import static io.switchboard.director.radius.RadiusPackets.text;
import static io.switchboard.director.testing.DecisionFuzz.check;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.testing.DecisionFuzz;
import io.switchboard.director.testing.EngineHarness;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The RADIUS plug-in's decisions as a fuzz target ({@link RadiusDecisionFuzzTest}, replayed by {@link RadiusDecisionFuzzFindingsTest}):
 * a virtual server for the NAS 127.0.0.20 (client 127.0.0.0/8, its secret) over one real with a secret of its own,
 * as {@code RadiusPluginTest}'s mutation test sets it up (plain, and with VSA correlation and a route map), through
 * the engine ({@link EngineHarness}, one per set-up, whose pending requests expire between inputs,
 * {@link DecisionFuzz#settle}; the clock moves past the duplicate cache time before each, so that no input is
 * answered from another's cache). An input's first octet chooses: bit 0 the path (0: a datagram from
 * the NAS, answered by the real if forwarded; 1: the real's answer to a valid request pending there), bit 1 re-sign
 * it first (with the NAS's secret as a request, with the real's and the forwarded request's identifier and
 * authenticator as an answer: a peer holding the secret signs whatever its bug produced, so that inputs get past the
 * authenticators), bit 2 held as a recvmmsg slice that cannot grow, bit 3 the set-up, bits 4-6 the pending request;
 * the rest is the datagram. Besides {@link DecisionFuzz}'s rules: a request forwarded carries the director's
 * identifier and verifies with the real's secret (RFC 2866 §3 Request Authenticator, RFC 3579 §3.2
 * Message-Authenticator), its User-Password hides the same password under the real's secret (RFC 2865 §5.2); what the
 * NAS gets (the real's answer relayed, or an answer from the duplicate cache) carries the NAS's identifier and
 * verifies for the NAS's request and secret (RFC 2865 §3 Response Authenticator), with a Message-Authenticator in
 * every answer to an Access-Request (RFC 3579 §3.2, BlastRADIUS).
 */
final class RadiusDecisionTarget {

    static final String CLIENT_SECRET = RadiusPluginTest.CLIENT_SECRET;
    static final String REAL_SECRET = RadiusPluginTest.REAL_SECRET;
    static final InetSocketAddress NAS = RadiusPluginTest.NAS;

    private record Node(RadiusPlugin plugin, Farms farms, StickyTable table, VirtualServerConfig config) {
    }

    /** An answer a real sends to {@code request} (as the NAS signed it): {@code code} with {@code attributes}. */
    private record AnswerTo(byte[] request, RadiusCode code, List<RadiusAttribute> attributes) {
    }

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Node[] nodes = {node(false), node(true)};
    private final EngineHarness[] engines = {engine(nodes[0]), engine(nodes[1])};
    final List<byte[]> requests;
    private final List<AnswerTo> answers;
    int forwarded;
    int relayed;
    /** The reasons of the drops and refused answers so far, for a seed test's message. */
    final List<String> refused = new ArrayList<>();

    RadiusDecisionTarget() {
        RadiusAttribute csid = text(RadiusAttributeType.CALLING_STATION_ID, "4915100000001");
        RadiusAttribute framedIp = new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(),
                new byte[] {10, 1, 2, 3});
        RadiusAttribute vsa = RadiusAttribute.vendorSpecific(VsaCorrelationTest.VENDOR, VsaCorrelationTest.TYPE,
                bytes("charging-id-1"));
        // EAP-Response/Identity (RFC 3748 §5.1), which RFC 3579 §3.2 wants with a Message-Authenticator.
        RadiusAttribute eap = new RadiusAttribute(RadiusAttributeType.EAP_MESSAGE.value(),
                new byte[] {2, 1, 0, 10, 1, 'a', 'l', 'i', 'c', 'e'});
        RadiusAttribute state = new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes("state-fuzz"));
        byte[] access = bytesOf(accessRequest(1, CLIENT_SECRET, "alice", "pw", List.of(csid, framedIp,
                messageAuthenticator())));
        byte[] eapRound = bytesOf(accessRequest(2, CLIENT_SECRET, "anonymous", "pw", List.of(eap, state,
                messageAuthenticator())));
        byte[] withVsas = bytesOf(accessRequest(3, CLIENT_SECRET, "bob", "a password of forty octets, three blocks",
                List.of(csid, vsa, RadiusAttribute.vendorSpecific(SaltedAttributes.MICROSOFT, 1, bytes("ms")),
                        // without it the client's Access-Request is refused (BlastRADIUS: MessageAuthenticatorPolicy)
                        messageAuthenticator())));
        byte[] start = bytesOf(accounting(4, RadiusAcctStatusType.START, List.of(csid, framedIp,
                text(RadiusAttributeType.ACCT_SESSION_ID, "s-1"))));
        byte[] stop = bytesOf(accounting(5, RadiusAcctStatusType.STOP, List.of(csid, framedIp)));
        byte[] accountingOn = bytesOf(accounting(6, RadiusAcctStatusType.ACCOUNTING_ON, List.of()));
        byte[] interim = bytesOf(accounting(7, RadiusAcctStatusType.INTERIM_UPDATE, List.of(csid, framedIp, vsa,
                messageAuthenticator())));
        // The conversation eapRound continues: its State is the one a real gave in a challenge (RFC 2865 §5.24).
        for (Node node : nodes) {
            challenge(node, "state-fuzz");
        }
        requests = List.of(access, eapRound, withVsas, start, stop, accountingOn, interim);
        byte[] salted = new byte[2 + 32];
        salted[0] = (byte) 0x80; // the salt's high bit is set (RFC 2548 §2.4.2)
        byte[] tunnelPassword = new byte[1 + 2 + 16];
        answers = List.of(
                new AnswerTo(access, RadiusCode.ACCESS_ACCEPT, List.of(
                        new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(), new byte[] {10, 9, 8, 7}),
                        RadiusAttribute.vendorSpecific(SaltedAttributes.MICROSOFT, SaltedAttributes.MS_MPPE_SEND_KEY,
                                salted),
                        new RadiusAttribute(SaltedAttributes.TUNNEL_PASSWORD, tunnelPassword), vsa,
                        messageAuthenticator())),
                new AnswerTo(eapRound, RadiusCode.ACCESS_CHALLENGE, List.of(
                        new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes("state-fuzz-2")), eap,
                        messageAuthenticator())),
                new AnswerTo(access, RadiusCode.ACCESS_REJECT, List.of(
                        text(RadiusAttributeType.REPLY_MESSAGE, "no"), messageAuthenticator())),
                new AnswerTo(start, RadiusCode.ACCOUNTING_RESPONSE, List.of()),
                new AnswerTo(stop, RadiusCode.ACCOUNTING_RESPONSE, List.of()),
                new AnswerTo(accountingOn, RadiusCode.ACCOUNTING_RESPONSE, List.of()),
                new AnswerTo(interim, RadiusCode.ACCOUNTING_RESPONSE, List.of(messageAuthenticator())));
    }

    private EngineHarness engine(Node node) {
        return new EngineHarness(node.config(), node.farms(), node.table(), node.plugin(), now::get);
    }

    /** A first round as "anonymous" through {@code node}, answered by an Access-Challenge with {@code state}. */
    private static void challenge(Node node, String state) {
        try {
            RadiusPlugin plugin = node.plugin();
            ByteBuf first = accessRequest(1, CLIENT_SECRET, "anonymous", "pw", List.of());
            plugin.classify(first, NAS);
            RadiusPlugin.Context context = plugin.prepareRequest(first, 1, node.farms().farm("aaa").reals().get(0), NAS);
            ByteBuf challenge = answer(RadiusCode.ACCESS_CHALLENGE, first, REAL_SECRET,
                    List.of(new RadiusAttribute(RadiusAttributeType.STATE.value(), bytes(state))));
            plugin.prepareResponse(challenge, plugin.clientTransactionId(first), context);
            first.release();
            challenge.release();
        } catch (DecodeException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code RadiusPluginTest}'s plug-in: plain, or with VSA correlation and a route map sending 10.0.0.0/8 to the real. */
    private Node node(boolean correlatingAndRouting) {
        RealConfig rc = new RealConfig(RadiusPluginTest.addr("127.0.0.2"), 1812, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, REAL_SECRET);
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("aaa", correlatingAndRouting
                ? new FarmConfig("aaa", PredictorKind.ROUTE_MAP, DecisionFuzz.NO_INBAND, List.of(rc), Optional.empty(),
                        List.of(), Optional.empty(), Map.of(new Subnet(RadiusPluginTest.addr("10.0.0.0"), 8),
                                rc.endpoint()))
                : new FarmConfig("aaa", PredictorKind.ROUNDROBIN, DecisionFuzz.NO_INBAND, List.of(rc),
                        Optional.empty()));
        Farms f = new Farms(farms);
        List<RadiusOptions.Client> clients = List.of(
                new RadiusOptions.Client(RadiusPluginTest.addr("127.0.0.0"), 8, CLIENT_SECRET),
                new RadiusOptions.Client(RadiusPluginTest.addr("127.0.0.99"), 32, "other"));
        RadiusOptions options = correlatingAndRouting
                ? new RadiusOptions(clients, RadiusOptions.FramedIp.DEFAULT, RadiusOptions.DEFAULT_STATE_IDLE,
                        Optional.of(new RadiusOptions.VsaCorrelation(VsaCorrelationTest.VENDOR, VsaCorrelationTest.TYPE,
                                Duration.ofMinutes(10))))
                : new RadiusOptions(clients);
        StickyConfig sticky = new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID, RadiusModule.USERNAME),
                Duration.ofHours(1), OptionalInt.empty(), 1000);
        VirtualServerConfig vs = new VirtualServerConfig("radius-auth", new Endpoint(RadiusPluginTest.addr("127.0.0.1"), 0),
                "radius", "aaa", Optional.of(sticky), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
        RadiusPlugin plugin = (RadiusPlugin) new RadiusService().create(vs);
        StickyTable table = new InMemoryStickyTable("t", Duration.ofHours(1), 1000);
        plugin.attach(new PluginContext(vs, table, f, now::get, new SimpleMeterRegistry(), NodeSlot.SINGLE,
                SharedTables.IN_MEMORY));
        return new Node(plugin, f, table, vs);
    }

    void run(byte[] input) throws DecodeException {
        if (input.length == 0) {
            return;
        }
        int control = input[0] & 0xff;
        EngineHarness engine = engines[(control >>> 3) & 1];
        // The same request again, once its cache time has passed, is a new one (RFC 5080 §2.2.2).
        now.addAndGet(RadiusOptions.Duplicates.DEFAULT_CACHE_TIME.toNanos() + 1);
        byte[] datagram = Arrays.copyOfRange(input, 1, input.length);
        boolean resign = (control & 2) != 0;
        boolean sliced = (control & 4) != 0;
        try {
            decide(engine, control, datagram, resign, sliced);
        } finally {
            if (refused.size() < 100) { // a fuzz run's millions would fill the heap
                engine.drops().forEach(d -> refused.add(d.toString()));
                engine.answersRefused().forEach(d -> refused.add("answer " + d));
            }
            DecisionFuzz.settle(engine, () -> now.addAndGet(Duration.ofSeconds(3).toNanos()));
        }
    }

    private void decide(EngineHarness engine, int control, byte[] datagram, boolean resign, boolean sliced)
            throws DecodeException {
        if ((control & 1) == 0) {
            if (resign) {
                RadiusPackets.resignRequest(datagram, CLIENT_SECRET);
            }
            request(engine, datagram, sliced);
        } else {
            fromTheReal(engine, datagram, resign, sliced, answers.get(((control >>> 4) & 7) % answers.size()));
        }
    }

    private void request(EngineHarness engine, byte[] datagram, boolean sliced) throws DecodeException {
        ByteBuf buf = datagram(datagram, sliced);
        DecisionFuzz.Outcome outcome;
        try {
            outcome = DecisionFuzz.fromClient(engine, buf, NAS, Set.of(), 8);
            check(buf.readerIndex() == 0, "the datagram's reader index moved");
        } finally {
            buf.release();
        }
        for (EngineHarness.ToClient local : outcome.toClients()) {
            checkForTheNas(local.bytes(), datagram);
        }
        for (EngineHarness.ToReal sent : List.copyOf(outcome.toReals())) {
            forwarded++;
            RadiusView asked = RadiusView.wrap(Unpooled.wrappedBuffer(datagram));
            RadiusView out = RadiusView.wrap(Unpooled.wrappedBuffer(sent.bytes()));
            check(out.identifier() == sent.transactionId(), "the forwarded request carries the director's identifier");
            check(out.code() == asked.code(), "the code is the NAS's");
            check(RadiusAuthenticators.verifyRequest(out, bytes(REAL_SECRET)), "the forwarded request verifies with the"
                    + " real's secret");
            checkPassword(asked, out);
            RadiusCode code = out.code() == RadiusCode.ACCESS_REQUEST.value() ? RadiusCode.ACCESS_ACCEPT
                    : RadiusCode.ACCOUNTING_RESPONSE;
            byte[] answer = bytesOf(answer(code, Unpooled.wrappedBuffer(sent.bytes()), REAL_SECRET,
                    List.of(new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(), new byte[] {10, 1, 2, 3}))));
            DecisionFuzz.Outcome answered = DecisionFuzz.fromReal(engine, Unpooled.wrappedBuffer(answer),
                    sent.real().address(), sent.socket(), NAS, Set.of(), 8);
            for (EngineHarness.ToClient c : answered.toClients()) {
                checkForTheNas(c.bytes(), datagram);
            }
        }
    }

    private void fromTheReal(EngineHarness engine, byte[] datagram, boolean resign, boolean sliced, AnswerTo pending)
            throws DecodeException {
        ByteBuf request = datagram(pending.request(), sliced);
        try {
            engine.fromClient(request, NAS);
        } finally {
            request.release();
        }
        check(engine.toReals().size() == 1, "the valid request is forwarded");
        EngineHarness.ToReal sent = engine.toReals().get(0);
        if (resign && datagram.length >= RadiusView.HEADER_LENGTH) {
            datagram[1] = (byte) sent.transactionId();
            RadiusPackets.resignResponse(datagram, RadiusView.wrap(Unpooled.wrappedBuffer(sent.bytes())).authenticator(),
                    REAL_SECRET);
        }
        ByteBuf buf = datagram(datagram, sliced);
        DecisionFuzz.Outcome outcome;
        try {
            outcome = DecisionFuzz.fromReal(engine, buf, sent.real().address(), sent.socket(), NAS, Set.of(), 8);
        } finally {
            buf.release();
        }
        for (EngineHarness.ToClient c : outcome.toClients()) {
            relayed++;
            checkForTheNas(c.bytes(), pending.request());
        }
    }

    /** An answer for the NAS to {@code request}: its identifier, signed for its authenticator with its secret. */
    private static void checkForTheNas(byte[] answer, byte[] request) throws DecodeException {
        RadiusView asked = RadiusView.wrap(Unpooled.wrappedBuffer(request));
        RadiusView out = RadiusView.wrap(Unpooled.wrappedBuffer(answer));
        check(out.identifier() == asked.identifier(), "the answer carries the NAS's identifier");
        check(RadiusAuthenticators.verifyResponse(out, asked.authenticator(), bytes(CLIENT_SECRET)),
                "the answer verifies for the NAS's request with its secret");
        if (asked.code() == RadiusCode.ACCESS_REQUEST.value()) {
            check(out.find(RadiusAttributeType.MESSAGE_AUTHENTICATOR.value()) >= 0,
                    "an answer to an Access-Request has a Message-Authenticator");
        }
    }

    /** The forwarded User-Password hides what the NAS's hid (RFC 2865 §5.2), when it is one of 16 to 128 octets. */
    private static void checkPassword(RadiusView asked, RadiusView out) {
        int a = asked.find(RadiusAttributeType.USER_PASSWORD.value());
        int b = out.find(RadiusAttributeType.USER_PASSWORD.value());
        if (asked.code() != RadiusCode.ACCESS_REQUEST.value() || a < 0) {
            return;
        }
        byte[] hidden = asked.value(a);
        if (hidden.length < 16 || hidden.length > 128 || hidden.length % 16 != 0) {
            return;
        }
        check(b >= 0, "the User-Password is forwarded");
        byte[] password = RadiusAuthenticators.revealUserPassword(hidden, bytes(CLIENT_SECRET), asked.authenticator());
        byte[] forwardedPassword = RadiusAuthenticators.revealUserPassword(out.value(b), bytes(REAL_SECRET),
                out.authenticator());
        check(Arrays.equals(password, forwardedPassword), "the real gets the NAS's password");
    }

    private static ByteBuf accounting(int id, int status, List<RadiusAttribute> more) {
        List<RadiusAttribute> attributes = new ArrayList<>();
        attributes.add(RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, status));
        attributes.addAll(more);
        return accountingRequest(id, CLIENT_SECRET, attributes);
    }

    private static byte[] bytesOf(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** As the engine holds it: on Linux a recvmmsg slice that cannot grow, elsewhere a buffer of its own. */
    private static ByteBuf datagram(byte[] bytes, boolean sliced) {
        return sliced ? RadiusPackets.recvmmsgSlice(bytes) : Unpooled.buffer(bytes.length).writeBytes(bytes);
    }

    /** Every valid datagram in the target's input form, re-signed, both set-ups: the fuzzer's first corpus. */
    List<byte[]> seedInputs() throws DecodeException {
        List<byte[]> all = new ArrayList<>();
        for (int node = 0; node < 2; node++) {
            for (byte[] r : requests) {
                all.add(input(2 | node << 3, r));
            }
            for (int i = 0; i < answers.size(); i++) {
                AnswerTo a = answers.get(i);
                // Signed for a forwarded request of its own; the target re-signs it for the one pending (bit 1).
                byte[] answer = bytesOf(answer(a.code(), Unpooled.wrappedBuffer(a.request()), REAL_SECRET,
                        a.attributes()));
                all.add(input(1 | 2 | node << 3 | i << 4, answer));
            }
        }
        return all;
    }

    int answerSeeds() {
        return answers.size();
    }

    static byte[] input(int control, byte[] datagram) {
        byte[] input = new byte[datagram.length + 1];
        input[0] = (byte) control;
        System.arraycopy(datagram, 0, input, 1, datagram.length);
        return input;
    }
}
