package io.switchboard.director.spi;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;

/**
 * A plug-in module's demo of one of its services, {@code switchboard demo --service NAME}: simulated
 * peers on loopback, the configuration a user would write for them, and a scripted run through the
 * director. Found through {@code ServiceLoader}, as {@link PluginModule} is: the module lists its
 * implementation in {@code META-INF/services/io.switchboard.director.spi.DemoScenario}, and the app
 * offers every service one is registered for. The app builds and starts the director from the
 * configuration and stops it; the scenario owns its peers.
 */
public interface DemoScenario {

    /** The service shown, as {@code --service} and the configuration name it (one of the module's). */
    String service();

    /** What the director is put in front of, for the demo's heading. */
    String title();

    /**
     * The prefix of the service's own meters on {@code /metrics}, if it has any: the demo's hint for
     * {@code --keep-running} points at them.
     */
    default Optional<String> metricsPrefix() {
        return Optional.empty();
    }

    /** Starts the simulated peers on loopback, on ephemeral ports, for {@code clients} clients. */
    Run start(int clients) throws IOException;

    /**
     * One entry of a farm's {@code reals:} list: a simulated peer on 127.0.0.1, named in a comment.
     * Every demo's configuration lists its peers this way, so that they read alike.
     */
    static String realLine(int port, int weight, String simulator) {
        return "      - { address: 127.0.0.1, port: " + port + ", weight: " + weight + " }   # " + simulator
                + " (simulated)\n";
    }

    /** One run of the scenario, its peers up until {@link #close}. */
    interface Run extends AutoCloseable {

        /**
         * The embedded configuration, the YAML a user writes: one virtual server, listening on an
         * ephemeral port of 127.0.0.1, in front of the simulated peers; the admin API on
         * {@code 127.0.0.1:adminPort} (0: any free port).
         */
        String configuration(int adminPort);

        /** Drives the started director, prints what happened, and says whether it behaved as shown. */
        boolean play(DemoDirector director, PrintWriter out) throws IOException;

        /** Stops the simulated peers. */
        @Override
        void close();
    }
}
