package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.StickyKind;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sticky admin API on a RADIUS sticky group: {@code ?kind=framed-ip} next to the configured keys. */
class RadiusAdminApiIT {

    private final HttpClient http = HttpClient.newHttpClient();
    private Node node;
    private URI base;

    @BeforeEach
    void start() throws Exception {
        String yaml = """
                admin: { listen: 127.0.0.1:0 }
                farms:
                  aaa-acct:
                    reals: [ { address: 127.0.0.2, port: 1813, secret: testing123 } ]
                virtual-servers:
                  radius-acct:
                    listen: 127.0.0.1:0
                    service: radius
                    farm: aaa-acct
                    clients: [ { subnet: 127.0.0.0/8, secret: testing123 } ]
                    sticky: { keys: [calling-station-id, username], idle: 1h, group: subscribers }
                """;
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), services);
        node.startAndWait();
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
        table.bindIfAbsent(StickyKey.parse(StickyKind.FRAMED_IP, "10.1.2.3"), binding, System.nanoTime());
        table.bindIfAbsent(StickyKey.parse(StickyKind.CALLING_STATION_ID, "4915100000001"), binding, System.nanoTime());

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
}
