package io.switchboard.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** A node's admin API as the ITs call it: its address, the bearer token (null: none), JSON answers. */
final class AdminClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final URI base;
    private final String token;

    AdminClient(InetSocketAddress admin, String token) {
        this.base = URI.create("http://127.0.0.1:" + admin.getPort());
        this.token = token;
    }

    /** {@code method path} with {@code body} (null: none) of {@code contentType} (null: none). */
    HttpResponse<String> call(String method, String path, String body, String contentType)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code POST /api/v1/config} with a YAML configuration. */
    HttpResponse<String> reload(String yaml) throws IOException, InterruptedException {
        return call("POST", "/api/v1/config", yaml, "application/yaml");
    }

    static JsonNode json(HttpResponse<String> answer) throws IOException {
        return JSON.readTree(answer.body());
    }

    /** The lines of {@code /metrics}. */
    List<String> metrics() throws IOException, InterruptedException {
        return call("GET", "/metrics", null, null).body().lines().toList();
    }

    /** The first line of {@code /metrics} that starts with {@code prefix}; empty when none does. */
    String metric(String prefix) throws IOException, InterruptedException {
        return metrics().stream().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
    }
}
