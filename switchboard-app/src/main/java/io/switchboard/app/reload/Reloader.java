package io.switchboard.app.reload;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.app.config.ConfigException;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.app.ios.IosImport;
import io.switchboard.app.ios.IosSyntaxException;
import io.switchboard.app.ios.IosTranslator;
import io.switchboard.app.ios.IosYamlWriter;
import io.switchboard.director.Director;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.bind.ConfigError;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reloads a running node's configuration: validates the new document exactly as at start-up (the
 * same loader, every error by path), computes the {@link ConfigDiff} against the running one, and
 * applies it in place when every change can be; otherwise changes nothing. One reload at a time
 * (the admin API, SIGHUP); the outcome is logged, counted in
 * {@code switchboard_config_reloads_total{result}} and returned.
 */
public final class Reloader {

    private static final Logger LOG = LoggerFactory.getLogger(Reloader.class);
    /** How long a reload waits for its changes to take effect (bound sockets) before it answers. */
    private static final long APPLY_WAIT_SECONDS = 30;

    /** How a reload ended; the {@code result} label of the counter. */
    public enum Result {
        /** Changes were applied. */
        APPLIED,
        /** Valid, and the same as the running configuration. */
        UNCHANGED,
        /** Not valid: nothing changed. */
        INVALID,
        /** Valid, but some change needs a restart: nothing changed. */
        REFUSED;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * What a reload did.
     *
     * @param changes      the diff (applied, or refused with it)
     * @param errors       why the document is not valid
     * @param needsRestart the paths whose change a running node cannot take yet
     */
    public record Outcome(Result result, List<ConfigChange> changes, List<ConfigError> errors,
            List<String> needsRestart) {

        public Outcome {
            changes = List.copyOf(changes);
            errors = List.copyOf(errors);
            needsRestart = List.copyOf(needsRestart);
        }
    }

    private final ConfigLoader loader;
    private final Director director;
    private final Consumer<RunningConfig> onApplied;
    private final Map<Result, Counter> counters = new EnumMap<>(Result.class);
    private volatile RunningConfig running;
    /** Where a configuration this node's operator gave is shared (the other nodes of a cluster). */
    private volatile Consumer<String> share = yaml -> { };

    /**
     * @param running   what the node was started with
     * @param onApplied told of the new running configuration after changes were applied (its digest
     *                  goes to the cluster)
     */
    public Reloader(ConfigLoader loader, RunningConfig running, Director director, MeterRegistry registry,
            Consumer<RunningConfig> onApplied) {
        this.loader = loader;
        this.running = running;
        this.director = director;
        this.onApplied = onApplied;
        for (Result result : Result.values()) {
            counters.put(result, Counter.builder("switchboard.config.reloads")
                    .description("Configuration reloads, by how they ended").tag("result", result.label())
                    .register(registry));
        }
    }

    /** The configuration the node runs now. */
    public RunningConfig running() {
        return running;
    }

    /**
     * Reloads from a configuration document.
     *
     * What this node accepts (applied, or the same as it runs) is shared with the other nodes of a
     * cluster ({@link #shareWith}).
     *
     * @param ios the text is an IOS SLB configuration, translated as {@code import-ios} does first
     * @param source where the text came from, for the log
     */
    public Outcome reload(String text, boolean ios, String source) {
        return reload(text, ios, source, true);
    }

    /**
     * Reloads a configuration another node of the cluster accepted ({@link ClusterReload}): as
     * {@link #reload}, but not shared again.
     */
    public Outcome reloadShared(String yaml, String source) {
        return reload(yaml, false, source, false);
    }

    /**
     * Shares from now on every configuration this node's operator gives that this node accepts
     * (applied, or the same as it runs: another node may still differ), as YAML.
     */
    public void shareWith(Consumer<String> share) {
        this.share = share;
    }

    private synchronized Outcome reload(String text, boolean ios, String source, boolean shared) {
        Outcome outcome;
        String accepted = null;
        try {
            // The API has no RADIUS secret to give the translation: a RADIUS farm from IOS text is refused
            // for want of one, by path, like any other error.
            String yaml = !ios ? text : IosYamlWriter.write(new IosTranslator(new IosTranslator.Options(
                    Optional.empty())).translate(text), IosImport.header(source));
            outcome = reload(yaml, loader.parse(yaml));
            accepted = yaml;
        } catch (IosSyntaxException e) {
            outcome = invalid(List.of(new ConfigError(ConfigError.DOCUMENT, e.getMessage())));
        } catch (ConfigException e) {
            outcome = invalid(e.errors());
        }
        counters.get(outcome.result()).increment();
        log(outcome, source);
        if (shared && accepted != null
                && (outcome.result() == Result.APPLIED || outcome.result() == Result.UNCHANGED)) {
            share.accept(accepted);
        }
        return outcome;
    }

    /** A document that could not even be read (SIGHUP with the file gone): refused, counted, logged. */
    public synchronized Outcome unreadable(String why, String source) {
        Outcome outcome = invalid(List.of(new ConfigError(ConfigError.DOCUMENT, why)));
        counters.get(outcome.result()).increment();
        log(outcome, source);
        return outcome;
    }

    private Outcome reload(String yaml, SwitchboardConfig next) {
        List<ConfigError> unbindable = ListenAddresses.unbindable(running.config(), next);
        if (!unbindable.isEmpty()) {
            return invalid(unbindable);
        }
        ConfigDiff diff = ConfigDiff.between(running.config(), next);
        if (diff.isEmpty()) {
            return new Outcome(Result.UNCHANGED, List.of(), List.of(), List.of());
        }
        if (!diff.needsRestart().isEmpty()) {
            return new Outcome(Result.REFUSED, diff.changes(), List.of(), diff.needsRestart());
        }
        try {
            // Binding an added or moved virtual server's address takes a moment; this runs off the event loops.
            diff.apply(director).toCompletionStage().toCompletableFuture().get(APPLY_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            // What could be applied was: the node runs the new configuration but for this.
            LOG.warn("reload: a change could not be applied: {}", e.getCause() == null ? e : e.getCause().getMessage());
        }
        running = new RunningConfig(next, yaml);
        onApplied.accept(running);
        return new Outcome(Result.APPLIED, diff.changes(), List.of(), List.of());
    }

    private static Outcome invalid(List<ConfigError> errors) {
        return new Outcome(Result.INVALID, List.of(), errors, List.of());
    }

    private void log(Outcome outcome, String source) {
        switch (outcome.result()) {
            case APPLIED -> {
                LOG.info("configuration reloaded from {}: {} change(s) applied, digest {}", source,
                        outcome.changes().size(), running.digest());
                outcome.changes().forEach(change -> LOG.info("reload: {}", change));
            }
            case UNCHANGED -> LOG.info("configuration reloaded from {}: no change", source);
            case INVALID -> {
                LOG.warn("configuration from {} refused: {} error(s), nothing changed", source, outcome.errors().size());
                outcome.errors().forEach(error -> LOG.warn("reload: {}", error));
            }
            case REFUSED -> LOG.warn("configuration from {} refused: changes need a restart, nothing changed: {}",
                    source, String.join(", ", outcome.needsRestart()));
        }
    }
}
