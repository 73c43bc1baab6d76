package io.switchboard.director.spi;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.VirtualServerConfig;
import java.util.List;

/**
 * A plug-in module's part of the IOS SLB import and export ({@code import-ios}, {@code export-ios}):
 * its services' options made from what an {@code ip slb vserver} said, and those options written
 * back as YAML and as IOS commands. The app parses the IOS syntax and writes everything else of both
 * documents; it knows no plug-in's options. Found through {@code ServiceLoader}, as
 * {@link DemoScenario} is: the module lists its implementation in
 * {@code META-INF/services/io.switchboard.director.spi.IosSlbOptions}. A service none is registered
 * for imports without options of its own and exports none.
 */
public interface IosSlbOptions {

    /** The services (of the module's) whose options these are. */
    List<String> services();

    /**
     * The options of one imported virtual server. Each line taken is reported {@linkplain
     * Line#translated translated} to the YAML keys it sets; a line that cannot be taken stops the
     * import with {@linkplain Line#error its error}.
     */
    ServiceOptions fromIos(IosSlbServer server);

    /**
     * Writes {@code options} as keys of the virtual server's YAML mapping, at {@code path}
     * ({@code virtual-servers.NAME}): what the service's {@link OptionsBinder} reads back to equal
     * options. Nothing for options at their defaults that the import left unsaid.
     */
    void writeYaml(ServiceOptions options, Yaml virtualServer, String path);

    /** Writes {@code options} as IOS commands, and what IOS cannot say as {@code !} comments naming it. */
    void writeIos(ServiceOptions options, VirtualServerConfig server, Ios out);

    /** One IOS line of the imported configuration. */
    interface Line {

        /** Reports the line translated, setting these YAML keys (full paths); the YAML cites it on them. */
        void translated(List<String> paths);

        /** The import's error at argument {@code argument} of the line (0: the first after the keyword), to throw. */
        RuntimeException error(int argument, String message);
    }

    /**
     * A YAML mapping being written, keys in the order put, each with an optional comment (null: none).
     * Values are typed; the writer quotes strings as YAML needs.
     */
    interface Yaml {

        /** {@code line 12: weight 3}, citing the IOS line that set the key at {@code path}; null if none did. */
        String cite(String path);

        Yaml text(String key, String value, String comment);

        Yaml number(String key, long value, String comment);

        Yaml bool(String key, boolean value, String comment);

        /** A sequence of numbers, in the given order. */
        Yaml numbers(String key, List<? extends Number> values, String comment);

        /** A new mapping under {@code key}, returned to be filled. */
        Yaml mapping(String key, String comment);

        /** A sequence of {@code count} new mappings under {@code key}, returned to be filled. */
        List<Yaml> mappings(String key, int count, String comment);
    }

    /**
     * Where a virtual server's options are written as IOS: global {@code ip slb} commands that go
     * before its {@code ip slb vserver} (written even when the server itself has no IOS form), and
     * lines of its mode.
     */
    interface Ios {

        /** A new {@code ip slb map} id, unique in the document. */
        int mapId();

        /** A line before the virtual server's mode, at {@code depth} (0: an {@code ip slb} command, 1: in its mode). */
        void global(int depth, String text);

        /** A line of the virtual server's mode. */
        void line(String text);

        /** The virtual server's {@code client ADDRESS MASK} line of a subnet. */
        void client(Subnet subnet);
    }
}
