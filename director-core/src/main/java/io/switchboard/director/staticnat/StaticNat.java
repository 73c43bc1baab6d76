package io.switchboard.director.staticnat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.StaticNatConfig;
import io.switchboard.director.config.StaticNatConfig.Action;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The director's nftables table for {@code static-nat:} (docs/transparent.md): written with
 * {@code nft -f} at start, deleted at stop, and its counters read back every {@link #READ_EVERY}
 * into {@code switchboard.static.nat.flows} (flows translated: a NAT chain sees each flow's first
 * packet only) and {@code switchboard.static.nat.dropped} (packets), tagged with the real.
 */
public final class StaticNat implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StaticNat.class);
    static final Duration READ_EVERY = Duration.ofSeconds(1);
    private static final Duration NFT_TIMEOUT = Duration.ofSeconds(10);
    /** {@code nft list counters} prints each named counter as {@code counter NAME { packets N bytes M }}. */
    private static final Pattern COUNTER = Pattern.compile("counter (\\w+) \\{\\s*packets (\\d+) bytes \\d+");

    private final String nft;
    private final String table;
    private final List<NftRuleset.Rule> rules;
    private final Map<String, Long> packets = new ConcurrentHashMap<>();
    private final Counter readFailures;
    private final ScheduledExecutorService reader;

    private StaticNat(String nft, StaticNatConfig config, MeterRegistry registry) {
        this.nft = nft;
        this.table = config.table();
        this.rules = NftRuleset.rules(config);
        this.readFailures = Counter.builder("switchboard.static.nat.read.failures")
                .description("Reads of the static NAT table's counters that failed (nft list counters)")
                .register(registry);
        for (NftRuleset.Rule r : rules) {
            String name = r.action() == Action.NAT ? "switchboard.static.nat.flows" : "switchboard.static.nat.dropped";
            String description = r.action() == Action.NAT
                    ? "Flows a real opened whose source the kernel translated (ip slb static nat)"
                    : "Packets of a real's own traffic the kernel dropped (ip slb static drop)";
            FunctionCounter.builder(name, packets, p -> p.getOrDefault(r.counter(), 0L))
                    .description(description).tag("real", r.realText())
                    .tag("translated", r.translated() == null ? "" : r.translated().getHostAddress())
                    .register(registry);
        }
        this.reader = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "static-nat-counters");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Writes the table and starts reading its counters. @throws IOException when nft refuses it (no
     * {@code CAP_NET_ADMIN}, no nftables): the reals' traffic would leave untranslated, so the node
     * does not start
     */
    public static StaticNat start(StaticNatConfig config, MeterRegistry registry) throws IOException,
            InterruptedException {
        return start("nft", config, registry);
    }

    static StaticNat start(String nft, StaticNatConfig config, MeterRegistry registry) throws IOException,
            InterruptedException {
        StaticNat nat = new StaticNat(nft, config, registry);
        try {
            nat.write();
        } catch (IOException | InterruptedException | RuntimeException e) {
            nat.reader.shutdownNow();
            throw e;
        }
        nat.reader.scheduleWithFixedDelay(nat::read, 0, READ_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("static NAT: nftables table ip {} written ({} reals)", nat.table, nat.rules.size());
        return nat;
    }

    private void write() throws IOException, InterruptedException {
        Path file = Files.createTempFile("switchboard-static-nat", ".nft");
        try {
            Files.writeString(file, NftRuleset.render(table, rules), StandardCharsets.UTF_8);
            run(List.of(nft, "-f", file.toString()));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private void read() {
        try {
            String out = run(List.of(nft, "list", "counters", "table", "ip", table));
            Map<String, Long> now = new HashMap<>();
            Matcher m = COUNTER.matcher(out);
            while (m.find()) {
                now.put(m.group(1), Long.parseLong(m.group(2)));
            }
            packets.putAll(now);
        } catch (IOException e) {
            readFailures.increment();
            LOG.warn("static NAT: cannot read the counters of table ip {}: {}", table, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads the counters now (tests, and the last read before the table goes). */
    public void readNow() {
        read();
    }

    /** Stops reading and deletes the table: the reals' own traffic is no longer translated or dropped. */
    @Override
    public void close() {
        reader.shutdownNow();
        read();
        try {
            run(List.of(nft, "delete", "table", "ip", table));
            LOG.info("static NAT: nftables table ip {} deleted", table);
        } catch (IOException e) {
            LOG.warn("static NAT: cannot delete table ip {}: {}", table, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(NFT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IOException(command.get(0) + " timed out after " + NFT_TIMEOUT);
        }
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited " + process.exitValue() + ": " + output.strip());
        }
        return output;
    }
}
