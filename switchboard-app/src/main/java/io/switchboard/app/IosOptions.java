package io.switchboard.app;

import io.switchboard.app.ios.IosFirewallLinks;
import io.switchboard.app.ios.IosSyntaxException;
import io.switchboard.app.ios.IosTranslation;
import io.switchboard.app.ios.IosTranslator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * What an IOS translation needs that the IOS file does not hold ({@code --radius-secret},
 * {@code --firewall-links}, {@code --route-health-hook}), for {@code import-ios} and every command whose {@code -c} takes an IOS
 * file, and how such a file is read and translated.
 */
final class IosOptions {

    @Option(names = "--radius-secret", paramLabel = "SECRET",
            description = "with an IOS configuration: the shared secret of the RADIUS clients (IOS SLB holds none)")
    String radiusSecret;

    @Option(names = "--firewall-links", paramLabel = "FILE",
            description = "with an IOS configuration: the firewall farms' interfaces and MAC addresses"
                    + " (see docs/ios-slb.md)")
    Path firewallLinks;

    @Option(names = "--route-health-hook", paramLabel = "HOOK",
            description = "with an IOS configuration: the route-health hook (HOOK up|down VIP NAME) that announces"
                    + " the virtual addresses as IOS's advertise does (see docs/ios-slb.md); without it none is")
    Path routeHealthHook;

    /** Reads and translates; on failure prints {@code FILE: line L, column C: ...} and returns empty. */
    Optional<IosTranslation> translate(Path file, PrintWriter err) {
        Map<String, IosFirewallLinks.Farm> links = Map.of();
        if (firewallLinks != null) {
            Optional<String> text = read(firewallLinks, err);
            if (text.isEmpty()) {
                return Optional.empty();
            }
            try {
                links = IosFirewallLinks.parse(text.get());
            } catch (IosSyntaxException e) {
                return failed(firewallLinks, e, err);
            }
        }
        Optional<String> text = read(file, err);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new IosTranslator(new IosTranslator.Options(Optional.ofNullable(radiusSecret), links,
                    Optional.ofNullable(routeHealthHook)))
                    .translate(text.get()));
        } catch (IosSyntaxException e) {
            return failed(file, e, err);
        }
    }

    private static Optional<IosTranslation> failed(Path file, IosSyntaxException e, PrintWriter err) {
        err.printf("%s: %s%n", file, e.getMessage());
        err.flush();
        return Optional.empty();
    }

    private static Optional<String> read(Path file, PrintWriter err) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            err.printf("%s: cannot read: %s%n", file, e.getMessage());
            err.flush();
            return Optional.empty();
        }
    }
}
