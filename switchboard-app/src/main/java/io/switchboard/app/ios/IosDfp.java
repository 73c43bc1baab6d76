package io.switchboard.app.ios;

import io.switchboard.director.config.DfpConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ip slb dfp [password [0] PASSWORD [timeout]]} with its {@code agent ADDR PORT [timeout
 * [retry-count [retry-interval]]]} lines, and the server farms' {@code bindid}, as {@code dfp:}
 * (docs/dfp.md). Times are seconds in IOS. A type 7 (obscured) password is not decoded: the line is
 * unsupported and DFP runs without security until the password is given in clear.
 */
final class IosDfp {

    private final IosLedger ledger;
    private Optional<String> password = Optional.empty();
    private final List<DfpConfig.Agent> agents = new ArrayList<>();
    private final Map<String, Integer> bindIds = new LinkedHashMap<>();
    private IosCommand dfpLine;

    IosDfp(IosLedger ledger) {
        this.ledger = ledger;
    }

    /** The {@code ip slb dfp} mode. */
    void read(IosCommand c) {
        if (dfpLine != null) {
            throw c.error(0, "a second ip slb dfp (line " + dfpLine.line() + ")");
        }
        dfpLine = c;
        if (!c.hasArg(0)) {
            ledger.translated(c, "dfp");
        } else if (c.isKeyword(0, "password")) {
            password(c, 1);
        } else {
            throw c.error(0, "expected password");
        }
        for (IosCommand child : c.children()) {
            if (child.negated()) {
                ledger.implied(child, "removes what is not configured");
            } else if (child.keyword().equals("agent")) {
                agent(child);
            } else {
                password(child, 0); // a "password ..." line of its own
            }
        }
    }

    /** {@code [0|7] PASSWORD [timeout]}, starting at argument {@code i}. */
    private void password(IosCommand c, int i) {
        if (c.hasArg(i) && c.arg(i).equals("7")) {
            ledger.unsupported(c, "a type 7 (obscured) DFP password: give it in clear in dfp.password");
            return;
        }
        int at = c.hasArg(i) && c.arg(i).equals("0") ? i + 1 : i;
        String value = IosValues.name(c, at, "the password");
        if (value.length() > 64) {
            throw c.error(at, "a DFP password has at most 64 characters (draft-eck-dfp-01 §5.1.1)");
        }
        password = Optional.of(value);
        if (c.hasArg(at + 1)) {
            // The timeout is §5.1.1's change-over from an old key to a new one; one key has none.
            IosValues.integer(c, at + 1, 0, 65535);
        }
        ledger.translated(c, "dfp.password");
    }

    private void agent(IosCommand c) {
        java.net.InetAddress address = IosValues.ipv4(c, 0);
        int port = IosValues.integer(c, 1, 1, 65535);
        Duration timeout = Duration.ofSeconds(c.hasArg(2) ? IosValues.integer(c, 2, 0, 65535) : 0);
        int retryCount = c.hasArg(3) ? IosValues.integer(c, 3, 0, 65535) : 0;
        Duration retryInterval = c.hasArg(4) ? Duration.ofSeconds(IosValues.integer(c, 4, 1, 65535))
                : DfpConfig.DEFAULT_RETRY_INTERVAL;
        DfpConfig.Agent agent = new DfpConfig.Agent(address, port, timeout, retryCount, retryInterval);
        if (agents.stream().anyMatch(a -> a.name().equals(agent.name()))) {
            throw c.error(0, "a second agent " + agent.name());
        }
        String path = "dfp.agents[" + agents.size() + "]";
        agents.add(agent);
        ledger.translated(c, List.of(path + ".address", path + ".port", path + ".timeout", path + ".retry-count",
                path + ".retry-interval"));
    }

    /** The bind IDs of the farms the translation kept, each reported with its line. */
    void farmsBuilt(Iterable<IosFarm> farms, java.util.Set<String> kept) {
        for (IosFarm f : farms) {
            if (f.bindIdLine == null) {
                continue;
            }
            if (!kept.contains(f.name)) {
                ledger.ignored(f.bindIdLine, "farm " + f.name + " is not used by any virtual server");
            } else if (f.bindId == 0) {
                ledger.implied(f.bindIdLine, "bind ID 0 is every farm's");
            } else {
                bindIds.put(f.name, f.bindId);
                ledger.translated(f.bindIdLine, "dfp.bind-ids." + f.name);
            }
        }
    }

    DfpConfig config() {
        return new DfpConfig(password, agents, bindIds, Optional.empty(), List.of());
    }
}
