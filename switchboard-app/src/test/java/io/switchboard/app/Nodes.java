package io.switchboard.app;

import io.switchboard.app.config.ConfigLoader;

/** A node of the tests: the YAML given, with every plug-in of the build, bound and serving. */
final class Nodes {

    private Nodes() {
    }

    /** Starts the node of {@code yaml}; the caller closes it. */
    static Node started(String yaml) throws Exception {
        Services services = Services.discover();
        Node node = new Node(new ConfigLoader(services.available()).parse(yaml), services);
        node.startAndWait();
        return node;
    }
}
