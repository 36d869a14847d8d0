package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A private CA and the certificates it issues (made with openssl), in PEM files in one directory:
 * ca.pem, server.pem and server-key.pem (for 127.0.0.1 and localhost), client.pem and client-key.pem.
 * Keys are unencrypted PKCS#8, as NATS_KEY takes them.
 */
public final class Certificates {

    private final Path directory;

    private Certificates(Path directory) {
        this.directory = directory;
    }

    /** Issues them with keys of {@code newKey}, openssl's form: {@code rsa:2048}, or {@code ec} (P-256). */
    public static Certificates issue(Path directory, String newKey) throws IOException {
        List<String> key = newKey.equals("ec")
                ? List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1")
                : List.of("-newkey", newKey);
        openssl(directory, key, "req", "-x509", "-nodes", "-keyout", "ca-key.pem", "-out", "ca.pem", "-days", "2",
                "-subj", "/CN=dagnats test CA");
        for (String name : List.of("server", "client")) {
            openssl(directory, key, "req", "-nodes", "-keyout", name + "-key.pem", "-out", name + ".csr",
                    "-subj", "/CN=" + name);
            Files.writeString(directory.resolve(name + ".ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
            openssl(directory, List.of(), "x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem",
                    "-CAcreateserial", "-out", name + ".pem", "-days", "2", "-extfile", name + ".ext");
        }
        return new Certificates(directory);
    }

    public Path directory() {
        return directory;
    }

    public Path file(String name) {
        return directory.resolve(name);
    }

    /** nats-server's arguments for TLS with this server certificate, requiring a client certificate of this CA. */
    public List<String> serverArguments() {
        return List.of("--tls", "--tlscert", file("server.pem").toString(), "--tlskey", file("server-key.pem").toString(),
                "--tlsverify", "--tlscacert", file("ca.pem").toString());
    }

    /** A client's TLS context: it trusts this CA and presents the client certificate. */
    public SSLContext clientContext() throws IOException, GeneralSecurityException {
        Path bundle = directory.resolve("client.p12");
        openssl(directory, List.of(), "pkcs12", "-export", "-in", "client.pem", "-inkey", "client-key.pem",
                "-out", bundle.getFileName().toString(), "-passout", "pass:test");
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(bundle)) {
            keys.load(in, "test".toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, "test".toCharArray());
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(file("ca.pem"))) {
            trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return context;
    }

    private static void openssl(Path directory, List<String> key, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl", arguments[0]));
        command.addAll(key);
        command.addAll(List.of(arguments).subList(1, arguments.length));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0,
                    "openssl failed: " + command + ": " + output);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IOException(interrupted);
        }
    }
}
