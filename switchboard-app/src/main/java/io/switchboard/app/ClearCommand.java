package io.switchboard.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard clear sticky KIND [KEY] | sessions [--real R] | counters}: IOS SLB's {@code clear ip slb
 * sticky gtp imsi}, {@code clear ip slb sessions} and {@code clear ip slb counters} on a running node, through
 * its admin API. Counters are cleared for what the API and {@code show} report; {@code /metrics} counts on.
 */
@Command(name = "clear", mixinStandardHelpOptions = true,
        description = "Clear sticky bindings, sessions or counters of a running node, as IOS 'clear ip slb' does.")
final class ClearCommand implements Callable<Integer> {

    enum What { sticky, sessions, counters }

    @Parameters(index = "0", description = "${COMPLETION-CANDIDATES}")
    What what;

    @Parameters(index = "1..*", arity = "0..*", description = "sticky: a key kind (imsi, framed-ip, ...) and optionally one key")
    List<String> args = new ArrayList<>();

    @Option(names = "--real", paramLabel = "ADDRESS:PORT", description = "sessions: only those of this real")
    String real;

    @Mixin
    AdminOption admin;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        HttpRequest.Builder request = request();
        if (request == null) {
            err.println("switchboard clear " + what + ": expected " + switch (what) {
                case sticky -> "a key kind and optionally a key";
                default -> "no arguments";
            });
            return 2;
        }
        HttpResponse<String> response = admin.ask(request, "clear", err);
        if (response == null || !AdminOption.succeeded(response, "clear", err)) {
            return 1;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(summary(response));
        out.flush();
        return 0;
    }

    /** One line saying what went: the API answers 204 for one key, JSON with the count otherwise. */
    private String summary(HttpResponse<String> response) throws java.io.IOException {
        if (response.statusCode() == 204) {
            return "removed the binding of " + args.get(0) + " " + args.get(1);
        }
        JsonNode body = new ObjectMapper().readTree(response.body());
        return switch (what) {
            case sticky -> "removed " + body.get("removed").asLong() + " bindings of kind " + body.get("kind").asText();
            case sessions -> "cleared " + body.get("cleared").asLong() + " sessions";
            case counters -> "counters cleared at " + body.get("cleared").asText();
        };
    }

    private HttpRequest.Builder request() {
        Duration timeout = Duration.ofSeconds(30);
        switch (what) {
            case sticky:
                if (args.size() == 1) {
                    return admin.request("/api/v1/sticky?kind=" + ShowCommand.encode(args.get(0)), timeout).DELETE();
                }
                if (args.size() == 2) {
                    return admin.request("/api/v1/sticky/" + ShowCommand.encode(args.get(0)) + "/"
                            + ShowCommand.encode(args.get(1)), timeout).DELETE();
                }
                return null;
            case sessions:
                return args.isEmpty() ? admin.request("/api/v1/sessions"
                        + (real == null ? "" : "?real=" + ShowCommand.encode(real)), timeout).DELETE() : null;
            default:
                return args.isEmpty() ? admin.request("/api/v1/counters/clear", timeout)
                        .POST(HttpRequest.BodyPublishers.noBody()) : null;
        }
    }
}
