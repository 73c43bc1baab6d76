package io.switchboard.director.config.bind;

/** Builds the paths of {@link ConfigError}: {@code farms.ggsn.reals[1].weight}. */
public final class ConfigPath {

    /** The document root; its children are named by their key alone. */
    public static final String ROOT = "";

    private ConfigPath() {
    }

    public static String child(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    public static String index(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** The path as shown in an error: the root is {@value ConfigError#DOCUMENT}. */
    public static String shown(String path) {
        return path.isEmpty() ? ConfigError.DOCUMENT : path;
    }
}
