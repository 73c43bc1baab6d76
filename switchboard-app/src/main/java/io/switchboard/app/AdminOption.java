package io.switchboard.app;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --admin URL --token T}: how a client command ({@code show}, {@code reload}) reaches a
 * running node's admin API, and the one way it asks.
 */
final class AdminOption {

    @Option(names = "--admin", defaultValue = "http://127.0.0.1:8080", description = "admin API base URL (default: ${DEFAULT-VALUE})")
    URI admin;

    @Option(names = "--token", description = "bearer token, when the node has one")
    String token;

    /** A request for {@code path} of the admin API, with the token when there is one. */
    HttpRequest.Builder request(String path, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(admin.resolve(path)).timeout(timeout);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    /** Sends it; the IOException says the node could not be reached. */
    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
