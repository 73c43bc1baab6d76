package io.switchboard.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.pcap.CaptureException;
import io.switchboard.pcap.LiveWhatIf;
import io.switchboard.pcap.WhatIf;
import io.switchboard.pcap.WhatIfComparison;
import io.switchboard.pcap.WhatIfFailure;
import io.switchboard.pcap.WhatIfRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard whatif -c FILE CAPTURE...}: every request of the captures through the
 * configuration's virtual servers, offline (see {@link WhatIf}) or through a live director on
 * loopback ({@code --live}, {@link LiveWhatIf}); one JSON line per request, then the summary. Exit 0;
 * 1 when there were stickiness violations; 2 when the configuration or a capture cannot be read.
 * {@code --compare} runs both and exits 1 at the first line or summary field they disagree on,
 * printing both.
 */
@Command(name = "whatif", mixinStandardHelpOptions = true,
        description = "Run the requests of captures through a configuration, offline or live on loopback: which real"
                + " each would reach, and why.")
final class WhatIfCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Parameters(arity = "1..*", paramLabel = "CAPTURE", description = "capture files (.pcap or .pcapng)")
    List<Path> captures;

    @Option(names = "--fail", paramLabel = "REAL@FRAME|REAL@+TIME",
            description = "take a real (address:port or farm/address:port) out of service at that frame, or that long"
                    + " (+30s, +500ms, +5m) after the first frame; repeatable")
    List<String> fail = new ArrayList<>();

    @Option(names = "--quiet", description = "print the summary only")
    boolean quiet;

    @ArgGroup(exclusive = true)
    Mode mode = new Mode();

    static final class Mode {

        @Option(names = "--live", description = "through a live director on loopback, with simulated reals and requesters")
        boolean live;

        @Option(names = "--compare", description = "offline and live; exit 1 at the first difference, printing both lines")
        boolean compare;
    }

    @Spec
    CommandSpec spec;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The plug-ins of the live run of {@code --compare}; the offline run's are the build's. Tests plant a divergence here. */
    Function<Function<VirtualServerConfig, DatagramService>, Function<VirtualServerConfig, DatagramService>> liveServices =
            services -> services;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Services services = Services.discover();
        SwitchboardConfig loaded = config.load(services, err);
        if (loaded == null) {
            return 2;
        }
        List<WhatIfFailure> failures = new ArrayList<>();
        try {
            for (String f : fail) {
                failures.add(WhatIfFailure.parse(f));
            }
            if (mode.compare) {
                try (LiveWhatIf live = new LiveWhatIf(loaded, liveServices.apply(services::forVirtualServer), failures)) {
                    return compare(new WhatIf(loaded, services::forVirtualServer, failures), live, out, err);
                }
            }
            if (mode.live) {
                try (LiveWhatIf live = new LiveWhatIf(loaded, services::forVirtualServer, failures)) {
                    return run(live, out, err);
                }
            }
            return run(new WhatIf(loaded, services::forVirtualServer, failures), out, err);
        } catch (IllegalArgumentException | IOException e) {
            err.println("whatif: " + e.getMessage());
            err.flush();
            return 2;
        }
    }

    private int run(WhatIfRun run, PrintWriter out, PrintWriter err) {
        int status = 0;
        for (Path capture : captures) {
            try {
                run.run(capture, captures.size() > 1 ? capture.toString() : null, o -> {
                    if (!quiet) {
                        out.println(json(o.toMap()));
                    }
                });
            } catch (CaptureException e) {
                err.println("whatif: " + e.getMessage());
                status = 2;
            }
        }
        return finish(run, status, out, err);
    }

    private int compare(WhatIf offline, LiveWhatIf live, PrintWriter out, PrintWriter err) {
        WhatIfComparison comparison = new WhatIfComparison();
        WhatIfComparison.Difference difference = comparison.compare(offline, live, captures, captures.size() > 1, o -> {
            if (!quiet) {
                out.println(json(o.toMap()));
            }
        });
        if (difference != null) {
            out.println("offline: " + (difference.offline() == null ? "(nothing)" : json(difference.offline())));
            out.println("live:    " + (difference.live() == null ? "(nothing)" : json(difference.live())));
            out.flush();
            err.println("whatif: offline and live differ (the two lines above)");
            err.flush();
            return 1;
        }
        for (WhatIfComparison.Unreadable u : comparison.unreadable()) {
            err.println("whatif: " + u.message());
        }
        return finish(offline, comparison.unreadable().isEmpty() ? 0 : 2, out, err);
    }

    private static int finish(WhatIfRun run, int status, PrintWriter out, PrintWriter err) {
        out.println(json(Map.of("summary", run.summary())));
        out.flush();
        err.flush();
        if (status == 0 && run.violations() > 0) {
            err.println("whatif: " + run.violations() + " stickiness violation(s)");
            err.flush();
            return 1;
        }
        return status;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
