package io.dagnats.leases.bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Builds an {@link SSLContext} from the PEM files the NATS tools take (NATS_CA, NATS_CERT, NATS_KEY). */
final class TlsContexts {

    private TlsContexts() {
    }

    static SSLContext fromPem(Optional<Path> ca, Optional<Path> cert, Optional<Path> key)
            throws IOException, GeneralSecurityException {
        TrustManagerFactory trust = null;
        if (ca.isPresent()) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int index = 0;
            for (Certificate certificate : certificates(ca.get())) {
                trusted.setCertificateEntry("ca-" + index++, certificate);
            }
            trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
        }
        KeyManagerFactory keys = null;
        if (cert.isPresent() && key.isPresent()) {
            char[] password = new char[0];
            KeyStore identity = KeyStore.getInstance(KeyStore.getDefaultType());
            identity.load(null, null);
            Certificate[] chain = certificates(cert.get()).toArray(new Certificate[0]);
            identity.setKeyEntry("client", privateKey(key.get()), password, chain);
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(identity, password);
        }
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
        return context;
    }

    private static Collection<? extends Certificate> certificates(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return CertificateFactory.getInstance("X.509").generateCertificates(in);
        }
    }

    private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
        String text = Files.readString(pem, StandardCharsets.US_ASCII);
        if (!text.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new GeneralSecurityException(pem + " is not an unencrypted PKCS#8 key (BEGIN PRIVATE KEY); "
                    + "convert it with: openssl pkcs8 -topk8 -nocrypt");
        }
        String base64 = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64));
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException notThisAlgorithm) {
                // try the next one
            }
        }
        throw new GeneralSecurityException(pem + " holds a key that is neither RSA, EC nor Ed25519");
    }
}
