package io.switchboard.director.config.bind;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A secret of the configuration (a RADIUS shared secret, the admin token, a key's passphrase), read by
 * {@link Section#secret}: written in the document ({@code secret: s3cret}), or kept out of it, in a
 * file ({@code secret: { file: /etc/switchboard/nas.secret }}) or in the environment ({@code secret:
 * { env: NAS_SECRET }}). It is resolved while the document is bound, so the plug-ins get the plain
 * value and never know where it came from.
 *
 * <p>A file's content is taken as it is, except for one line ending at its end ({@code echo s3cret >
 * file} writes one), which no secret is meant to hold. A relative path is relative to the working
 * directory. Nothing read here is ever put in an error message.
 *
 * <p>The names of the keys read as secrets are remembered ({@link #keyNames}), so that what shows a
 * document ({@code GET /api/v1/config}) can hide their values and {@code check} can tell a document
 * holding a secret in clear text.
 */
public final class Secrets {

    /** The keys of the {@code { file: PATH }} and {@code { env: NAME }} forms. */
    public static final Schema SOURCE = Schema.of("where a secret is kept",
            Key.path("file").note("a file holding the secret (one trailing line ending is dropped)"),
            Key.string("env").note("an environment variable holding the secret"));

    public static final List<String> SOURCE_KEYS = SOURCE.names();

    /** Every key name ever read as a secret: schema knowledge, the same for every document. */
    private static final Set<String> KEY_NAMES = ConcurrentHashMap.newKeySet();

    private Secrets() {
    }

    /** The names of the keys read as secrets so far ({@code secret}, {@code token}, ...). */
    public static Set<String> keyNames() {
        return Set.copyOf(KEY_NAMES);
    }

    /** Remembers {@code key} as one that holds a secret, without reading a document. */
    public static void declare(String key) {
        KEY_NAMES.add(key);
    }

    /**
     * The secret {@code node} gives, at {@code path} (whose last key is the secret's name): the text of a
     * scalar, or the content of a file, or an environment variable's value; empty after an error.
     */
    public static Optional<String> read(YamlNode node, String path, List<ConfigError> errors) {
        KEY_NAMES.add(path.substring(path.lastIndexOf('.') + 1));
        if (!(node instanceof YamlNode.Mapping)) {
            return Section.string(node, path, errors);
        }
        Optional<Section> source = Section.open(node, path, errors, SOURCE);
        if (source.isEmpty()) {
            return Optional.empty();
        }
        Section s = source.get();
        if (s.has("file") == s.has("env")) {
            s.error(path, "give either the secret itself, or { file: PATH }, or { env: NAME }");
            return Optional.empty();
        }
        return s.has("file") ? s.string("file").flatMap(file -> fromFile(file, s.pathOf("file"), errors))
                : s.string("env").flatMap(variable -> fromEnvironment(variable, s.pathOf("env"), errors));
    }

    private static Optional<String> fromFile(String file, String path, List<ConfigError> errors) {
        String text;
        try {
            text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (InvalidPathException e) {
            return error(errors, path, "'" + file + "' is not a file path: " + e.getReason());
        } catch (NoSuchFileException e) {
            return error(errors, path, "cannot read " + file + ": no such file");
        } catch (AccessDeniedException e) {
            return error(errors, path, "cannot read " + file + ": permission denied");
        } catch (CharacterCodingException e) {
            return error(errors, path, "cannot read " + file + ": not UTF-8 text");
        } catch (IOException e) {
            return error(errors, path, "cannot read " + file + ": " + e.getClass().getSimpleName());
        }
        String secret = text.endsWith("\r\n") ? text.substring(0, text.length() - 2)
                : text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        if (secret.isEmpty()) {
            return error(errors, path, file + " is empty: it must hold the secret");
        }
        return Optional.of(secret);
    }

    private static Optional<String> fromEnvironment(String variable, String path, List<ConfigError> errors) {
        String value = System.getenv(variable);
        if (value == null) {
            return error(errors, path, "environment variable " + variable + " is not set");
        }
        if (value.isEmpty()) {
            return error(errors, path, "environment variable " + variable + " is empty: it must hold the secret");
        }
        return Optional.of(value);
    }

    private static Optional<String> error(List<ConfigError> errors, String path, String message) {
        errors.add(new ConfigError(ConfigPath.shown(path), message));
        return Optional.empty();
    }

    /**
     * The paths at which {@code root} holds a secret in clear text: a scalar under a key read as a
     * secret ({@link #keyNames}), where a {@code { file: }} or {@code { env: }} could stand instead.
     */
    public static List<String> clearTextPaths(YamlNode root) {
        List<String> paths = new java.util.ArrayList<>();
        collect(root, ConfigPath.ROOT, null, keyNames(), paths);
        return paths;
    }

    private static void collect(YamlNode node, String path, String key, Set<String> names, List<String> paths) {
        if (node instanceof YamlNode.Mapping mapping) {
            for (Map.Entry<String, YamlNode> e : mapping.entries().entrySet()) {
                collect(e.getValue(), ConfigPath.child(path, e.getKey()), e.getKey(), names, paths);
            }
        } else if (node instanceof YamlNode.Sequence sequence) {
            for (int i = 0; i < sequence.items().size(); i++) {
                collect(sequence.items().get(i), ConfigPath.index(path, i), null, names, paths);
            }
        } else if (node instanceof YamlNode.Scalar scalar && key != null && names.contains(key)
                && scalar.kind() != YamlNode.Kind.NULL && !scalar.text().isEmpty()) {
            paths.add(path);
        }
    }
}
