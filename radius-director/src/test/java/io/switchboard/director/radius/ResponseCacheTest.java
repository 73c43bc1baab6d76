package io.switchboard.director.radius;

import static io.switchboard.director.radius.BlastRadiusTest.exchange;
import static io.switchboard.director.radius.RadiusFixture.CLIENT_SECRET;
import static io.switchboard.director.radius.RadiusFixture.NAS;
import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.accountingRequest;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.director.radius.RadiusOptions.Tristate;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Duplicate detection, RFC 5080 §2.2.2: a duplicate is a request from the same source address and
 * port with the same Identifier and Request Authenticator; the server sends the cached response to it
 * again, within the cache time (5 to 30 seconds), while a request reusing the Identifier with another
 * Request Authenticator is a new request. Through the engine: what the real sees, what the NAS gets.
 */
class ResponseCacheTest {

    private final RadiusFixture f = new RadiusFixture(RadiusFixture.options(Tristate.AUTO, Tristate.AUTO), null);

    @Test
    void aRetransmissionOfAnAnsweredRequestGetsTheSameAnswerAndTheRealSeesItOnce() {
        byte[] request = ByteBufUtil.getBytes(accessRequest(7, CLIENT_SECRET, "alice", "pw", List.of()));
        byte[] first = exchange(f.engine, request, RadiusCode.ACCESS_ACCEPT, List.of());
        f.now.addAndGet(Duration.ofSeconds(4).toNanos());
        f.engine.fromClient(request, NAS);
        assertThat(f.engine.toReals()).as("the real saw it once").hasSize(1);
        assertThat(f.engine.toClients()).hasSize(2);
        assertThat(f.engine.toClients().get(1).to()).isEqualTo(NAS);
        assertThat(f.engine.toClients().get(1).bytes()).isEqualTo(first);
        assertThat(f.count("switchboard.radius.duplicates", "outcome", "answered-from-cache")).isEqualTo(1);
    }

    @Test
    void accountingIsAnsweredFromTheCacheToo() {
        byte[] start = ByteBufUtil.getBytes(accountingRequest(8, CLIENT_SECRET, List.of(
                RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, RadiusAcctStatusType.START))));
        byte[] first = exchange(f.engine, start, RadiusCode.ACCOUNTING_RESPONSE, List.of());
        f.engine.fromClient(start, NAS);
        assertThat(f.engine.toReals()).hasSize(1);
        assertThat(f.engine.toClients().get(1).bytes()).isEqualTo(first);
    }

    @Test
    void theSameIdentifierWithAnotherAuthenticatorIsANewRequest() {
        exchange(f.engine, ByteBufUtil.getBytes(accessRequest(9, CLIENT_SECRET, "alice", "pw", List.of())),
                RadiusCode.ACCESS_ACCEPT, List.of());
        byte[] second = exchange(f.engine, ByteBufUtil.getBytes(accessRequest(9, CLIENT_SECRET, "bob", "pw", List.of())),
                RadiusCode.ACCESS_REJECT, List.of());
        assertThat(second[0] & 0xff).isEqualTo(RadiusCode.ACCESS_REJECT.value());
        assertThat(f.engine.toReals()).hasSize(2);
        assertThat(f.count("switchboard.radius.duplicates", "outcome", "identifier-reused")).isEqualTo(1);
    }

    @Test
    void anotherSourcePortIsAnotherClientsRequest() {
        byte[] request = ByteBufUtil.getBytes(accessRequest(10, CLIENT_SECRET, "alice", "pw", List.of()));
        exchange(f.engine, request, RadiusCode.ACCESS_ACCEPT, List.of());
        f.engine.fromClient(request, new InetSocketAddress(NAS.getAddress(), NAS.getPort() + 1));
        assertThat(f.engine.toReals()).hasSize(2);
    }

    @Test
    void anotherSourceAddressWithTheSameIdentifierAndAuthenticatorIsAnotherClientsRequest() {
        byte[] request = ByteBufUtil.getBytes(accessRequest(13, CLIENT_SECRET, "alice", "pw", List.of()));
        exchange(f.engine, request, RadiusCode.ACCESS_ACCEPT, List.of());
        f.engine.fromClient(request, new InetSocketAddress(RadiusFixture.address("127.0.0.21"), NAS.getPort()));
        assertThat(f.engine.toReals()).as("not answered from the first client's entry").hasSize(2);
        assertThat(f.count("switchboard.radius.duplicates", "outcome", "answered-from-cache")).isZero();
    }

    @Test
    void afterTheCacheTimeTheRequestGoesToTheRealAgain() {
        byte[] request = ByteBufUtil.getBytes(accessRequest(11, CLIENT_SECRET, "alice", "pw", List.of()));
        exchange(f.engine, request, RadiusCode.ACCESS_ACCEPT, List.of());
        f.now.addAndGet(RadiusOptions.Duplicates.DEFAULT_CACHE_TIME.toNanos() + 1);
        exchange(f.engine, request, RadiusCode.ACCESS_ACCEPT, List.of());
        assertThat(f.engine.toReals()).hasSize(2);
    }

    @Test
    void theDefaultCacheTimeIsRfc5080sFiveSecondsAndNoEntriesMeansNoCache() {
        assertThat(RadiusOptions.Duplicates.DEFAULT.cacheTime()).isEqualTo(Duration.ofSeconds(5));
        RadiusFixture none = new RadiusFixture(RadiusFixture.options(Tristate.AUTO, Tristate.AUTO)
                .withDuplicates(new RadiusOptions.Duplicates(Duration.ofSeconds(5), 0)), null);
        byte[] request = ByteBufUtil.getBytes(accessRequest(12, CLIENT_SECRET, "alice", "pw", List.of()));
        exchange(none.engine, request, RadiusCode.ACCESS_ACCEPT, List.of());
        exchange(none.engine, request, RadiusCode.ACCESS_ACCEPT, List.of());
        assertThat(none.engine.toReals()).hasSize(2);
    }
}
