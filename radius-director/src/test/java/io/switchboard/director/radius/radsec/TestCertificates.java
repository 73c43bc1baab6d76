package io.switchboard.director.radius.radsec;

import io.switchboard.director.radius.radsec.RadsecOptions.TlsFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test CA and the certificates it signs, made with {@code openssl} (Debian {@code openssl}, which
 * {@code .ci/run} installs) in a directory of the test's: EC P-256 keys in PKCS#8 PEM, as the JDK's
 * TLS reads them and radsecproxy too.
 */
public final class TestCertificates {

    private final Path dir;
    private final Path ca;
    private final Path caKey;

    /** Makes the CA ({@code CN=Switchboard test CA}) in {@code dir}. */
    public TestCertificates(Path dir) throws IOException, InterruptedException {
        this.dir = dir;
        this.ca = dir.resolve("ca.pem");
        this.caKey = dir.resolve("ca.key");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", caKey.toString(), "-out", ca.toString(), "-days", "2", "-subj", "/CN=Switchboard test CA");
    }

    public Path ca() {
        return ca;
    }

    /**
     * A certificate signed by the CA for {@code cn}, with {@code altNames} as its subjectAltName
     * ({@code DNS:nas1.test}, {@code IP:127.0.0.31}), and the CA as the trust anchor.
     */
    public TlsFiles issue(String name, String cn, String... altNames) throws IOException, InterruptedException {
        Path key = dir.resolve(name + ".key");
        Path csr = dir.resolve(name + ".csr");
        Path cert = dir.resolve(name + ".pem");
        Path ext = dir.resolve(name + ".ext");
        Files.writeString(ext, "subjectAltName=" + String.join(",", altNames) + "\n"
                + "extendedKeyUsage=serverAuth,clientAuth\n");
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                key.toString(), "-out", csr.toString(), "-subj", "/CN=" + cn);
        openssl("x509", "-req", "-in", csr.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-out", cert.toString(), "-days", "2", "-extfile", ext.toString());
        return new TlsFiles(cert, key, ca);
    }

    /** A self-signed certificate no test CA vouches for. */
    public TlsFiles selfSigned(String name, String cn) throws IOException, InterruptedException {
        Path key = dir.resolve(name + ".key");
        Path cert = dir.resolve(name + ".pem");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=" + cn);
        return new TlsFiles(cert, key, cert);
    }

    private void openssl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Path out = dir.resolve("openssl.out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish");
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(command + " failed: " + Files.readString(out));
        }
    }
}
