package io.switchboard.director.spi;

import io.switchboard.director.config.Subnet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a plug-in's {@link IosSlbOptions} did, for its tests: the lines it reported translated (by
 * their text) and the IOS it wrote, as the app would print it (global lines indented by depth, lines
 * of the mode by one blank).
 */
public final class IosSlbRecorder {

    /** YAML paths by the text of the line that reported them, in order. */
    public final Map<String, List<String>> translated = new LinkedHashMap<>();
    /** The global lines, then the mode's. */
    public final List<String> global = new ArrayList<>();
    public final List<String> mode = new ArrayList<>();

    /** An IOS line whose errors say its text: {@code 'gtp notification cac 3' arg 2: message}. */
    public IosSlbOptions.Line line(String text) {
        return new IosSlbOptions.Line() {
            @Override
            public void translated(List<String> paths) {
                translated.computeIfAbsent(text, t -> new ArrayList<>()).addAll(paths);
            }

            @Override
            public RuntimeException error(int argument, String message) {
                return new IllegalArgumentException("'" + text + "' arg " + argument + ": " + message);
            }
        };
    }

    /** Numbers maps from 1, as the export does. */
    public IosSlbOptions.Ios ios() {
        return new IosSlbOptions.Ios() {
            private int mapIds;

            @Override
            public int mapId() {
                return ++mapIds;
            }

            @Override
            public void global(int depth, String text) {
                global.add(" ".repeat(depth) + text);
            }

            @Override
            public void line(String text) {
                mode.add(" " + text);
            }

            @Override
            public void client(Subnet subnet) {
                mode.add(" client " + subnet);
            }
        };
    }
}
