package io.switchboard.director.config.bind;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parsed YAML tree as the configuration loader reads it: mappings in document order, lists, and scalars
 * with the text exactly as written (so {@code 010} stays {@code 010}, and {@code on} can be told
 * from {@code true}).
 */
public sealed interface YamlNode {

    /** How this node reads in an error message: "a mapping", "a list", "a string", ... */
    String description();

    record Mapping(Map<String, YamlNode> entries) implements YamlNode {
        public Mapping {
            entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }

        @Override
        public String description() {
            return "a mapping";
        }
    }

    record Sequence(List<YamlNode> items) implements YamlNode {
        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public String description() {
            return "a list";
        }
    }

    record Scalar(Kind kind, String text) implements YamlNode {
        @Override
        public String description() {
            return kind.description;
        }
    }

    /** A node already reported as an error while reading the YAML (an alias, a binary value). */
    record Rejected() implements YamlNode {
        @Override
        public String description() {
            return "an unsupported value";
        }
    }

    enum Kind {
        STRING("a string"),
        INTEGER("an integer"),
        DECIMAL("a decimal number"),
        BOOLEAN("a boolean"),
        NULL("null");

        private final String description;

        Kind(String description) {
            this.description = description;
        }
    }
}
