package io.switchboard.director.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a plug-in module's main code may import of director-core (issue 17: plug-ins see the SPI, not
 * the engine): {@code spi}, and the APIs a plug-in is written against — its options ({@code config},
 * {@code config.bind}), its shared tables ({@code shared}), its probes ({@code probe}), the sticky
 * values ({@code sticky.StickyKey}, {@code StickyBinding}, {@code StickyKind}), and the small values
 * at the top ({@code Ticker}, {@code NodeSlot}, {@code RateLimitedLog}, {@code Pace}, {@code EngineDrops}'s reasons).
 * Not the engine itself: reals, selectors, the transaction engine, lanes, pending tables, metrics of
 * the engine. Two value types of engine packages are allowed, named here: {@code real.RealState}
 * ({@code RealView.state()}) and {@code predictor.PrefixTable} ({@code FarmView.routeMap()}); and
 * {@code transport.Transports}, the node's one transport choice, for a plug-in that opens sockets of
 * its own (RadSec's TLS listener and connections to reals take their channel class from it).
 * Each plug-in module's test runs {@link #violations} over its own sources.
 */
public final class SpiBoundary {

    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(io\\.switchboard\\.director\\.[\\w.]+);",
            Pattern.MULTILINE);
    private static final List<String> ALLOWED_PACKAGES = List.of("io.switchboard.director.spi.",
            "io.switchboard.director.config.", "io.switchboard.director.shared.", "io.switchboard.director.probe.");
    private static final List<String> ALLOWED_TYPES = List.of("io.switchboard.director.sticky.StickyKey",
            "io.switchboard.director.sticky.StickyBinding", "io.switchboard.director.sticky.StickyKind",
            "io.switchboard.director.transport.Transports",
            "io.switchboard.director.Ticker", "io.switchboard.director.NodeSlot",
            "io.switchboard.director.RateLimitedLog", "io.switchboard.director.Pace", "io.switchboard.director.EngineDrops",
            "io.switchboard.director.real.RealState", "io.switchboard.director.predictor.PrefixTable");

    private SpiBoundary() {
    }

    /**
     * The imports of director-core under {@code sources} (a module's {@code src/main/java}) that are
     * neither the SPI nor allowed, as "file: import"; imports of the module's own package are its own.
     *
     * @param own the module's own package prefix, e.g. {@code io.switchboard.director.gtp}
     */
    public static List<String> violations(Path sources, String own) {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    String name = m.group(1);
                    if (!name.startsWith(own + ".") && !allowed(name)) {
                        found.add(sources.relativize(file) + ": " + name);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    private static boolean allowed(String name) {
        return ALLOWED_PACKAGES.stream().anyMatch(name::startsWith)
                || ALLOWED_TYPES.stream().anyMatch(t -> name.equals(t) || name.startsWith(t + "."));
    }
}
