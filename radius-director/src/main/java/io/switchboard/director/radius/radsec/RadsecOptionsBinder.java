package io.switchboard.director.radius.radsec;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.config.bind.YamlNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * {@code radsec:} of a {@code service: radius} virtual server: {@code listen} (ADDRESS:PORT, or
 * {@code off}), {@code identify} ({@code address} or {@code certificate}) and {@code tls:
 * {certificate, key, ca}}. Every file must be readable and the TLS contexts must build from them;
 * each problem is reported at its path.
 */
public final class RadsecOptionsBinder {

    public static final Schema TLS = Schema.of("the TLS files of RadSec, PEM (RFC 6614 §2.3)",
            Key.path("certificate").required().note("The director's certificate chain, shown to clients and reals."),
            Key.path("key").required().note("Its private key."),
            Key.path("ca").required().note("The CA that clients' and reals' certificates must chain to."));

    private static final List<String> IDENTIFY = List.of("address", "certificate");

    public static final Schema RADSEC = Schema.of("RADIUS over TLS of a `radius` virtual server",
            Key.endpoint("listen").shownAs("endpoint or `off`").byDefault("the virtual address, port `2083`")
                    .note("Where RadSec clients connect (RFC 6614 §2.2: port 2083); `off`: none, the block then"
                            + " only serves the reals with `transport: radsec`."),
            Key.oneOf("identify", IDENTIFY).defaultValue(IDENTIFY.get(0)).note("Which client a TLS peer is: by its"
                    + " source address in `clients`, or by the `certificate-name` its certificate carries as well."),
            Key.mapping("tls", TLS).required().note("`{ certificate, key, ca }`: PEM files; they must make a TLS context."));

    private RadsecOptionsBinder() {
    }

    /** The block at {@code radsec} of {@code vs}; empty when absent or (reported) wrong. */
    public static Optional<RadsecOptions> bind(Section vs) {
        if (!vs.has("radsec")) {
            return Optional.empty();
        }
        Optional<Section> block = vs.section("radsec");
        if (block.isEmpty()) {
            return Optional.empty();
        }
        Section r = block.get();
        int before = r.errors().size();
        boolean accepts = true;
        Optional<Endpoint> listen = Optional.empty();
        Optional<YamlNode> listenNode = r.node("listen");
        if (listenNode.isPresent() && listenNode.get() instanceof YamlNode.Scalar s
                && s.kind() == YamlNode.Kind.BOOLEAN) {
            String text = s.text().toLowerCase(Locale.ROOT);
            accepts = !(text.equals("off") || text.equals("false") || text.equals("no"));
            if (accepts) {
                r.error(r.pathOf("listen"), "must be ADDRESS:PORT or off");
            }
        } else if (listenNode.isPresent()) {
            listen = r.endpoint("listen");
        }
        RadsecOptions.Identify identify = RadsecOptions.Identify.ADDRESS;
        Optional<String> how = r.string("identify");
        if (how.isPresent()) {
            if (how.get().equals(IDENTIFY.get(1))) {
                identify = RadsecOptions.Identify.CERTIFICATE;
            } else if (!how.get().equals(IDENTIFY.get(0))) {
                r.error(r.pathOf("identify"), "must be address or certificate, not '" + how.get() + "'");
            }
        }
        Optional<RadsecOptions.TlsFiles> tls = r.require("tls", "required ({certificate, key, ca}: PEM files)")
                ? r.section("tls").flatMap(RadsecOptionsBinder::tls) : Optional.empty();
        if (tls.isEmpty() || r.errors().size() > before) {
            return Optional.empty();
        }
        return Optional.of(new RadsecOptions(accepts, listen, identify, tls.get()));
    }

    private static Optional<RadsecOptions.TlsFiles> tls(Section t) {
        int before = t.errors().size();
        Optional<Path> certificate = file(t, "certificate");
        Optional<Path> key = file(t, "key");
        Optional<Path> ca = file(t, "ca");
        if (t.errors().size() > before || certificate.isEmpty() || key.isEmpty() || ca.isEmpty()) {
            return Optional.empty();
        }
        RadsecOptions.TlsFiles files = new RadsecOptions.TlsFiles(certificate.get(), key.get(), ca.get());
        try {
            RadsecTls.load(files);
        } catch (SSLException | IllegalArgumentException e) {
            t.error(t.path(), "the certificate, key and CA do not make a TLS context: " + e.getMessage());
            return Optional.empty();
        }
        return Optional.of(files);
    }

    /** A required, readable file at {@code key}. */
    private static Optional<Path> file(Section t, String key) {
        if (!t.require(key, "required (a PEM file)")) {
            return Optional.empty();
        }
        Optional<Path> path = t.string(key).map(Path::of);
        if (path.isPresent() && !(Files.isRegularFile(path.get()) && Files.isReadable(path.get()))) {
            t.error(t.pathOf(key), "cannot read " + path.get());
            return Optional.empty();
        }
        return path;
    }
}
