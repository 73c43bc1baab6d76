package io.switchboard.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.reload.ConfigChange;
import java.io.PrintWriter;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard reload -c FILE}: sends a configuration to a running node's admin API
 * ({@code POST /api/v1/config}) and prints what changed, or why nothing did. An IOS file is
 * translated here first, with the same options as {@code run}. Exit 0 when applied or unchanged, 2
 * when the node found it not valid, 3 when a change needs a restart, 1 when the node cannot be asked.
 */
@Command(name = "reload", mixinStandardHelpOptions = true,
        description = "Apply a changed configuration to a running node without a restart.")
final class ReloadCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Mixin
    AdminOption admin;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String yaml = config.yaml(err);
        if (yaml == null) {
            return 2;
        }
        HttpResponse<String> response = admin.ask(admin.request("/api/v1/config", Duration.ofSeconds(30))
                .header("Content-Type", "application/yaml").POST(HttpRequest.BodyPublishers.ofString(yaml)), "reload", err);
        if (response == null) {
            return 1;
        }
        JsonNode body;
        try {
            body = new ObjectMapper().readTree(response.body());
        } catch (java.io.IOException e) {
            body = null;
        }
        if (body == null || !body.has("result")) {
            err.println("switchboard reload: " + response.statusCode() + " " + response.body());
            return 1;
        }
        switch (body.get("result").asText()) {
            case "applied" -> {
                printChanges(body, out);
                out.printf("%s: applied; configuration digest %s%n", config.file, body.get("digest").asText());
            }
            case "unchanged" -> out.printf("%s: no change%n", config.file);
            case "invalid" -> {
                err.printf("%s: %d configuration error%s, nothing changed:%n", config.file, body.get("errors").size(),
                        body.get("errors").size() == 1 ? "" : "s");
                body.get("errors").forEach(e -> err.printf("  %s: %s%n", e.get("path").asText(),
                        e.get("message").asText()));
            }
            default -> {
                printChanges(body, out);
                err.printf("%s: refused, nothing changed; these need a restart (a later version applies them):%n",
                        config.file);
                body.get("needs-restart").forEach(path -> err.printf("  %s%n", path.asText()));
            }
        }
        out.flush();
        err.flush();
        return switch (body.get("result").asText()) {
            case "applied", "unchanged" -> 0;
            case "invalid" -> 2;
            default -> 3;
        };
    }

    /** One line per change, as the node logs it: {@code changed farms.ggsn.reals[10.0.0.3:2123].weight: 8 -> 4}. */
    private static void printChanges(JsonNode body, PrintWriter out) {
        for (ConfigChange.Kind kind : ConfigChange.Kind.values()) {
            for (JsonNode c : body.get(kind.label())) {
                out.printf("  %s%n", new ConfigChange(c.get("path").asText(), kind, value(c.get("old")),
                        value(c.get("new"))));
            }
        }
    }

    private static Object value(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
