package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.radius.RadiusModule;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sticky admin API on RADIUS virtual servers: {@code /api/v1/sticky/{vserver}?key=&kind=} and
 * {@code /api/v1/sticky/{kind}/{key}} over a sticky group (auth and acct) and a virtual server with a
 * table of its own.
 */
class RadiusAdminApiIT {

    private final HttpClient http = HttpClient.newHttpClient();
    private Node node;
    private URI base;

    @BeforeEach
    void start() throws Exception {
        String yaml = """
                admin: { listen: 127.0.0.1:0 }
                farms:
                  aaa-auth:
                    reals: [ { address: 127.0.0.2, port: 1812, secret: testing123 } ]
                  aaa-acct:
                    reals: [ { address: 127.0.0.2, port: 1813, secret: testing123 } ]
                  other:
                    reals: [ { address: 127.0.0.3, port: 1812, secret: testing123 } ]
                virtual-servers:
                  radius-auth:
                    listen: 127.0.0.1:0
                    service: radius
                    farm: aaa-auth
                    clients: [ { subnet: 127.0.0.0/8, secret: testing123 } ]
                    sticky: { keys: [calling-station-id, username], idle: 1h, group: subscribers }
                  radius-other:
                    listen: 127.0.0.1:0
                    service: radius
                    farm: other
                    clients: [ { subnet: 127.0.0.0/8, secret: testing123 } ]
                    sticky: { keys: [calling-station-id], idle: 1h }
                  radius-acct:
                    listen: 127.0.0.1:0
                    service: radius
                    farm: aaa-acct
                    clients: [ { subnet: 127.0.0.0/8, secret: testing123 } ]
                    sticky: { keys: [calling-station-id, username], idle: 1h, group: subscribers }
                """;
        node = Nodes.started(yaml);
        base = URI.create("http://127.0.0.1:" + node.adminAddress().getPort());
    }

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private HttpResponse<String> call(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void framedIpAndCallingStationBindingsAreReadAndDeletedByKind() throws Exception {
        StickyTable table = node.director().virtualServers().get("radius-acct").selector().sticky();
        StickyBinding binding = new StickyBinding("aaa-acct", "127.0.0.2:1813");
        table.bindIfAbsent(StickyKey.parse(RadiusModule.FRAMED_IP, "10.1.2.3"), binding, System.nanoTime());
        table.bindIfAbsent(StickyKey.parse(RadiusModule.CALLING_STATION_ID, "4915100000001"), binding, System.nanoTime());

        HttpResponse<String> framed = call("GET", "/api/v1/sticky/radius-acct?key=10.1.2.3&kind=framed-ip");
        assertThat(framed.statusCode()).isEqualTo(200);
        assertThat(framed.body()).contains("\"kind\" : \"framed-ip\"").contains("127.0.0.2:1813");
        // Without kind: the first configured key.
        assertThat(call("GET", "/api/v1/sticky/radius-acct?key=4915100000001").statusCode()).isEqualTo(200);
        assertThat(call("GET", "/api/v1/sticky/radius-acct?key=10.1.2.3").statusCode()).isEqualTo(404);
        assertThat(call("GET", "/api/v1/sticky/radius-acct?key=1&kind=imsi").statusCode()).isEqualTo(400);

        assertThat(call("DELETE", "/api/v1/sticky/radius-acct?key=10.1.2.3&kind=framed-ip").statusCode()).isEqualTo(204);
        assertThat(call("GET", "/api/v1/sticky/radius-acct?key=10.1.2.3&kind=framed-ip").statusCode()).isEqualTo(404);
    }

    @Test
    void ipv6PrefixKeysAreReadAndDeletedInTheirAddressSlashLengthForm() throws Exception {
        StickyTable group = node.director().virtualServers().get("radius-acct").selector().sticky();
        StickyBinding binding = new StickyBinding("aaa-acct", "127.0.0.2:1813");
        long now = System.nanoTime();
        group.bindIfAbsent(StickyKey.parse(RadiusModule.FRAMED_IPV6_PREFIX, "2001:db8:1:2::/64"), binding, now);
        group.bindIfAbsent(StickyKey.parse(RadiusModule.DELEGATED_IPV6_PREFIX, "2001:db8:ff00::/56"), binding, now);

        // The key's '/' URL-encoded in the path; the host bits and the long form name the same prefix.
        HttpResponse<String> framed = call("GET", "/api/v1/sticky/framed-ipv6-prefix/2001:db8:1:2::5%2F64");
        assertThat(framed.statusCode()).as(framed.body()).isEqualTo(200);
        JsonNode list = new ObjectMapper().readTree(framed.body());
        assertThat(list.findValuesAsText("vserver")).containsExactly("radius-acct", "radius-auth");
        assertThat(list.get(0).get("kind").asText()).isEqualTo("framed-ipv6-prefix");
        assertThat(list.get(0).get("key").asText()).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(list.get(0).get("real").asText()).isEqualTo("127.0.0.2:1813");
        assertThat(call("GET", "/api/v1/sticky/framed-ipv6-prefix/2001:db8:1:2::%2F56").statusCode()).isEqualTo(404);
        assertThat(call("GET", "/api/v1/sticky/framed-ipv6-prefix/2001:db8:1:2::").statusCode()).isEqualTo(400);
        assertThat(call("GET", "/api/v1/sticky/framed-ipv6-prefix/2001:db8::%2F129").statusCode()).isEqualTo(400);
        // Per virtual server, in the query.
        HttpResponse<String> delegated = call("GET",
                "/api/v1/sticky/radius-acct?kind=delegated-ipv6-prefix&key=2001:db8:ff00::%2F56");
        assertThat(delegated.statusCode()).as(delegated.body()).isEqualTo(200);
        assertThat(delegated.body()).contains("\"kind\" : \"delegated-ipv6-prefix\"").contains("127.0.0.2:1813");

        assertThat(call("DELETE", "/api/v1/sticky/delegated-ipv6-prefix/2001:db8:ff00::%2F56").statusCode())
                .isEqualTo(204);
        assertThat(group.lookup(StickyKey.parse(RadiusModule.DELEGATED_IPV6_PREFIX, "2001:db8:ff00::/56"),
                System.nanoTime())).isNull();
        assertThat(call("DELETE", "/api/v1/sticky/radius-acct?kind=framed-ipv6-prefix&key=2001:db8:1:2::%2F64")
                .statusCode()).isEqualTo(204);
        assertThat(group.size()).isZero();
    }

    @Test
    void aKeyIsFoundAndDeletedByKindInEveryTableThatHoldsIt() throws Exception {
        StickyTable group = node.director().virtualServers().get("radius-acct").selector().sticky();
        StickyTable own = node.director().virtualServers().get("radius-other").selector().sticky();
        assertThat(node.director().virtualServers().get("radius-auth").selector().sticky()).isSameAs(group);
        assertThat(own).isNotSameAs(group);
        long now = System.nanoTime();
        StickyKey msisdn = StickyKey.parse(RadiusModule.CALLING_STATION_ID, "+49-151-0000001");
        StickyKey alice = StickyKey.parse(RadiusModule.USERNAME, "alice@example.org");
        StickyKey framed = StickyKey.parse(RadiusModule.FRAMED_IP, "10.9.8.7");
        group.bindIfAbsent(msisdn, new StickyBinding("aaa-auth", "127.0.0.2:1812"), now);
        own.bindIfAbsent(msisdn, new StickyBinding("other", "127.0.0.3:1812"), now);
        group.bindIfAbsent(alice, new StickyBinding("aaa-auth", "127.0.0.2:1812"), now);
        group.bindIfAbsent(framed, new StickyBinding("aaa-acct", "127.0.0.2:1813"), now);

        // URL-encoded key: '+' must arrive as itself.
        HttpResponse<String> found = call("GET", "/api/v1/sticky/calling-station-id/%2B49-151-0000001");
        assertThat(found.statusCode()).isEqualTo(200);
        JsonNode list = new ObjectMapper().readTree(found.body());
        assertThat(list).hasSize(3);
        assertThat(list.findValuesAsText("vserver")).containsExactly("radius-acct", "radius-auth", "radius-other");
        assertThat(list.findValuesAsText("real")).containsExactly("127.0.0.2:1812", "127.0.0.2:1812", "127.0.0.3:1812");
        assertThat(list.get(0).get("group").asText()).isEqualTo("subscribers");
        assertThat(list.get(2).has("group")).isFalse();
        assertThat(list.get(0).get("kind").asText()).isEqualTo("calling-station-id");
        assertThat(list.get(0).get("key").asText()).isEqualTo("+49-151-0000001");

        assertThat(call("GET", "/api/v1/sticky/username/alice@example.org").body()).contains("127.0.0.2:1812");
        assertThat(call("GET", "/api/v1/sticky/framed-ip/10.9.8.7").body()).contains("127.0.0.2:1813");
        assertThat(call("GET", "/api/v1/sticky/framed-ip/10.9.8.8").statusCode()).isEqualTo(404);
        assertThat(call("GET", "/api/v1/sticky/framed-ip/not-an-address").statusCode()).isEqualTo(400);
        assertThat(call("GET", "/api/v1/sticky/msisdn/1").statusCode()).isEqualTo(400);
        assertThat(call("GET", "/api/v1/sticky/imsi/262420000000001").statusCode()).isEqualTo(404);

        // DELETE: out of the group's table and the other virtual server's own.
        assertThat(call("DELETE", "/api/v1/sticky/calling-station-id/%2B49-151-0000001").statusCode()).isEqualTo(204);
        assertThat(group.lookup(msisdn, System.nanoTime())).isNull();
        assertThat(own.lookup(msisdn, System.nanoTime())).isNull();
        assertThat(call("GET", "/api/v1/sticky/calling-station-id/%2B49-151-0000001").statusCode()).isEqualTo(404);
        assertThat(call("DELETE", "/api/v1/sticky/calling-station-id/%2B49-151-0000001").statusCode()).isEqualTo(404);
        // The other keys stay.
        assertThat(group.lookup(alice, System.nanoTime())).isNotNull();
        assertThat(call("DELETE", "/api/v1/sticky/framed-ip/10.9.8.7").statusCode()).isEqualTo(204);
        assertThat(group.lookup(framed, System.nanoTime())).isNull();
    }
}
