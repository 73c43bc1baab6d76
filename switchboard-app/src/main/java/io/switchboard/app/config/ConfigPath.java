package io.switchboard.app.config;

/** Builds the paths of {@link ConfigError}: {@code farms.ggsn.reals[1].weight}. */
final class ConfigPath {

    /** The document root; its children are named by their key alone. */
    static final String ROOT = "";

    private ConfigPath() {
    }

    static String child(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    static String index(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** The path as shown in an error: the root is {@value ConfigError#DOCUMENT}. */
    static String shown(String path) {
        return path.isEmpty() ? ConfigError.DOCUMENT : path;
    }
}
