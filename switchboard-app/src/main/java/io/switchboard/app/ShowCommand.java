package io.switchboard.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard show reals|vservers}: the tables of IOS {@code show ip slb reals} and
 * {@code show ip slb vservers}, read from a running node's admin API.
 */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Show reals or virtual servers of a running node, as IOS 'show ip slb' does.")
final class ShowCommand implements Callable<Integer> {

    enum What { reals, vservers }

    @Parameters(index = "0", description = "reals | vservers")
    What what;

    @Mixin
    AdminOption admin;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String path = what == What.reals ? "/api/v1/farms" : "/api/v1/vservers";
        HttpResponse<String> response;
        try {
            response = admin.send(admin.request(path, Duration.ofSeconds(5)));
        } catch (java.io.IOException e) {
            spec.commandLine().getErr().println("switchboard show: cannot reach " + admin.admin + ": " + e);
            return 1;
        }
        if (response.statusCode() != 200) {
            spec.commandLine().getErr().println("switchboard show: " + response.statusCode() + " " + response.body());
            return 1;
        }
        JsonNode json = new ObjectMapper().readTree(response.body());
        PrintWriter out = spec.commandLine().getOut();
        if (what == What.reals) {
            printReals(json, out);
        } else {
            printVservers(json, out);
        }
        out.flush();
        return 0;
    }

    static void printReals(JsonNode farms, PrintWriter out) {
        String format = "%-24s %-14s %6s %-20s %7s %10s %10s%n";
        out.printf(format, "real", "farm name", "weight", "state", "conns", "requests", "failures");
        out.println("-".repeat(97));
        for (JsonNode farm : farms) {
            for (JsonNode real : farm.get("reals")) {
                out.printf(format, real.get("real").asText(), farm.get("name").asText(), real.get("weight").asInt(),
                        real.get("state").asText(), real.get("connections").asInt(), real.get("requests").asLong(),
                        real.get("failures").asLong());
            }
        }
    }

    static void printVservers(JsonNode vservers, PrintWriter out) {
        String format = "%-16s %-8s %-24s %-14s %-11s %10s %8s%n";
        out.printf(format, "slb vserver", "prot", "virtual", "farm", "state", "forwarded", "sticky");
        out.println("-".repeat(97));
        for (JsonNode v : vservers) {
            out.printf(format, v.get("name").asText(), v.get("service").asText(), v.get("listen").asText(),
                    v.get("farm").asText(), v.get("inService").asBoolean() ? "OPERATIONAL" : "OUTOFSERVICE",
                    v.get("forwarded").asLong(), v.get("stickyEntries").isNull() ? "-" : v.get("stickyEntries").asText());
        }
    }
}
