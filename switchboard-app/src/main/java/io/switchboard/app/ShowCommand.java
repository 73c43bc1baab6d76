package io.switchboard.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
 * {@code switchboard show WHAT [ARGS]}: a running node's state as IOS SLB's {@code show ip slb WHAT} prints it
 * ({@link ShowTables}), read from its admin API; {@code --json} prints the API's answer as it is, for scripts.
 */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Show a running node's state, as IOS 'show ip slb' does: reals [detail], vservers, "
                + "serverfarms [detail], sticky [KIND [KEY]], sessions, probes, stats, cluster, config [ios].")
final class ShowCommand implements Callable<Integer> {

    enum What { reals, vservers, serverfarms, sticky, sessions, probes, stats, cluster, config }

    @Parameters(index = "0", description = "${COMPLETION-CANDIDATES}")
    What what;

    @Parameters(index = "1..*", arity = "0..*", description = "detail | ios | a sticky key kind and key")
    List<String> args = new ArrayList<>();

    @Option(names = "--json", description = "print the admin API's JSON instead of the table")
    boolean json;

    @Option(names = "--real", paramLabel = "ADDRESS:PORT", description = "sessions: only those of this real")
    String real;

    @Option(names = "--limit", defaultValue = "1000", description = "sticky: list at most this many (default: ${DEFAULT-VALUE})")
    int limit;

    @Mixin
    AdminOption admin;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        String path = path();
        if (path == null) {
            err.println("switchboard show " + what + ": unexpected " + String.join(" ", args));
            return 2;
        }
        HttpResponse<String> response = admin.ask(admin.request(path, Duration.ofSeconds(10)), "show", err);
        if (response == null || !AdminOption.succeeded(response, "show", err)) {
            return 1;
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(response.body());
        } else {
            return print(new ObjectMapper().readTree(response.body()), out, err);
        }
        out.flush();
        return 0;
    }

    private boolean detail() {
        return args.equals(List.of("detail"));
    }

    /** The admin API path for what was asked, or null when the arguments do not fit it. */
    private String path() {
        switch (what) {
            case reals:
            case serverfarms:
                return args.isEmpty() || detail() ? "/api/v1/farms" : null;
            case sticky:
                if (args.size() > 2) {
                    return null;
                }
                if (args.size() == 2) {
                    return "/api/v1/sticky/" + encode(args.get(0)) + "/" + encode(args.get(1));
                }
                return "/api/v1/sticky?limit=" + limit + (args.isEmpty() ? "" : "&kind=" + encode(args.get(0)));
            case sessions:
                return args.isEmpty() ? "/api/v1/sessions" + (real == null ? "" : "?real=" + encode(real)) : null;
            case config:
                return args.isEmpty() ? "/api/v1/config" : args.equals(List.of("ios")) ? "/api/v1/config?format=ios" : null;
            default:
                return args.isEmpty() ? "/api/v1/" + what.name() : null;
        }
    }

    private int print(JsonNode body, PrintWriter out, PrintWriter err) {
        switch (what) {
            case reals -> ShowTables.reals(body, detail(), out);
            case vservers -> ShowTables.vservers(body, out);
            case serverfarms -> ShowTables.serverfarms(body, detail(), out);
            case sticky -> {
                if (args.size() == 2) {
                    for (JsonNode b : body) {
                        out.printf("%s %s: farm %s, real %s (vserver %s)%n", b.get("kind").asText(),
                                b.get("key").asText(), b.get("farm").asText(), b.get("real").asText(),
                                b.get("vserver").asText());
                    }
                } else {
                    ShowTables.sticky(body, out);
                }
            }
            case sessions -> ShowTables.sessions(body, out);
            case probes -> ShowTables.probes(body, out);
            case stats -> ShowTables.stats(body, out);
            case cluster -> ShowTables.cluster(body, out);
            case config -> {
                JsonNode text = body.get(args.isEmpty() ? "yaml" : "ios");
                if (text == null || text.isNull()) {
                    err.println("switchboard show config: the node holds no configuration text (started from a"
                            + " parsed configuration)");
                    return 1;
                }
                out.print(text.asText());
            }
        }
        out.flush();
        return 0;
    }

    static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
