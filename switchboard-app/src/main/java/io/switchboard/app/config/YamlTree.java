package io.switchboard.app.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.YamlNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads one YAML document into a {@link YamlNode} tree, streaming through Jackson's YAML parser so
 * that what a tree-binding mapper would hide is reported instead: duplicate keys (Jackson keeps
 * the last one silently), aliases (Jackson turns {@code *name} into the string {@code "name"}),
 * and a second document after {@code ---}.
 */
final class YamlTree {

    private static final YAMLFactory YAML = YAMLFactory.builder().build();

    private final List<ConfigError> errors;

    private YamlTree(List<ConfigError> errors) {
        this.errors = errors;
    }

    /**
     * The document's root node; empty when the document has no content or is not valid YAML (the
     * latter is added to {@code errors}).
     */
    static Optional<YamlNode> parse(String text, List<ConfigError> errors) {
        return new YamlTree(errors).parse(text);
    }

    private Optional<YamlNode> parse(String text) {
        try (JsonParser parser = YAML.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                return Optional.empty();
            }
            YamlNode root = read(parser, first, ConfigPath.ROOT);
            if (parser.nextToken() != null) {
                errors.add(new ConfigError(ConfigError.DOCUMENT,
                        "more than one YAML document (---); the configuration is exactly one document"));
            }
            return Optional.of(root);
        } catch (JsonProcessingException e) {
            errors.add(new ConfigError(ConfigError.DOCUMENT, syntaxError(e)));
            return Optional.empty();
        } catch (IOException e) {
            // Reading from a String: no I/O can fail.
            throw new UncheckedIOException(e);
        }
    }

    private YamlNode read(JsonParser parser, JsonToken token, String path) throws IOException {
        if (((YAMLParser) parser).isCurrentAlias()) {
            errors.add(new ConfigError(ConfigPath.shown(path),
                    "YAML aliases (*" + parser.getText() + ") are not supported; write the value out"));
            return new YamlNode.Rejected();
        }
        switch (token) {
            case START_OBJECT: {
                Map<String, YamlNode> entries = new LinkedHashMap<>();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
                    String key = parser.currentName();
                    String childPath = ConfigPath.child(path, key);
                    YamlNode value = read(parser, parser.nextToken(), childPath);
                    if (entries.containsKey(key)) {
                        errors.add(new ConfigError(childPath, "duplicate key"));
                    } else {
                        entries.put(key, value);
                    }
                }
                return new YamlNode.Mapping(entries);
            }
            case START_ARRAY: {
                List<YamlNode> items = new ArrayList<>();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
                    items.add(read(parser, t, ConfigPath.index(path, items.size())));
                }
                return new YamlNode.Sequence(items);
            }
            case VALUE_STRING:
                return new YamlNode.Scalar(YamlNode.Kind.STRING, parser.getText());
            case VALUE_NUMBER_INT:
                return new YamlNode.Scalar(YamlNode.Kind.INTEGER, parser.getText());
            case VALUE_NUMBER_FLOAT:
                return new YamlNode.Scalar(YamlNode.Kind.DECIMAL, parser.getText());
            case VALUE_TRUE:
            case VALUE_FALSE:
                return new YamlNode.Scalar(YamlNode.Kind.BOOLEAN, parser.getText());
            case VALUE_NULL:
                return new YamlNode.Scalar(YamlNode.Kind.NULL, parser.getText());
            default:
                // VALUE_EMBEDDED_OBJECT: !!binary and other typed values.
                errors.add(new ConfigError(ConfigPath.shown(path),
                        "unsupported YAML value (" + token + "); use plain strings, numbers and booleans"));
                return new YamlNode.Rejected();
        }
    }

    private static String syntaxError(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException) {
            return "document too large or too deeply nested: " + e.getOriginalMessage();
        }
        if (e.getCause() instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
            String where = "line " + (yaml.getProblemMark().getLine() + 1)
                    + ", column " + (yaml.getProblemMark().getColumn() + 1);
            String context = yaml.getContext() == null ? "" : " (" + yaml.getContext() + ")";
            return "not valid YAML at " + where + ": " + yaml.getProblem() + context;
        }
        String where = e.getLocation() == null ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        return "not valid YAML" + where + ": " + e.getOriginalMessage();
    }
}
