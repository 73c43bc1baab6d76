package io.switchboard.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.pcap.CaptureException;
import io.switchboard.pcap.WhatIf;
import io.switchboard.pcap.WhatIfFailure;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard whatif -c FILE CAPTURE...}: every request of the captures through the
 * configuration's virtual servers, offline (see {@link WhatIf}); one JSON line per request, then the
 * summary. Exit 0; 1 when there were stickiness violations; 2 when the configuration or a capture
 * cannot be read.
 */
@Command(name = "whatif", mixinStandardHelpOptions = true,
        description = "Run the requests of captures offline through a configuration: which real each would reach, and why.")
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

    @Spec
    CommandSpec spec;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Services services = Services.discover();
        SwitchboardConfig loaded = config.load(services, err);
        if (loaded == null) {
            return 2;
        }
        WhatIf run;
        try {
            List<WhatIfFailure> failures = new ArrayList<>();
            for (String f : fail) {
                failures.add(WhatIfFailure.parse(f));
            }
            run = new WhatIf(loaded, services::forVirtualServer, failures);
        } catch (IllegalArgumentException e) {
            err.println("whatif: " + e.getMessage());
            err.flush();
            return 2;
        }
        int status = 0;
        for (Path capture : captures) {
            try {
                run.run(capture, captures.size() > 1 ? capture.toString() : null,
                        o -> {
                            if (!quiet) {
                                out.println(json(o.toMap()));
                            }
                        });
            } catch (CaptureException e) {
                err.println("whatif: " + e.getMessage());
                status = 2;
            }
        }
        out.println(json(Map.of("summary", run.summary())));
        out.flush();
        err.flush();
        if (status == 0 && run.violations() > 0) {
            err.println("whatif: " + run.violations() + " stickiness violation(s)");
            err.flush();
            status = 1;
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
