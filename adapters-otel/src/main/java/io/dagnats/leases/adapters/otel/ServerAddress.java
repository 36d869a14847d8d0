package io.dagnats.leases.adapters.otel;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import java.net.URI;
import java.util.function.Supplier;

/**
 * {@code server.address} and {@code server.port} of the NATS server the
 * connection is on now, parsed once per URL the connection reports (it changes
 * only on a reconnect to another server).
 */
final class ServerAddress {

    static final AttributeKey<String> ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> PORT = AttributeKey.longKey("server.port");

    private final Supplier<String> connectedUrl;
    private volatile Parsed last = new Parsed(null, Attributes.empty());

    private record Parsed(String url, Attributes attributes) {
    }

    /** @param connectedUrl the URL the connection is on, or null while it is on none */
    ServerAddress(Supplier<String> connectedUrl) {
        this.connectedUrl = connectedUrl;
    }

    /** Empty while not connected, or when the URL names no host. */
    Attributes attributes() {
        String url = connectedUrl.get();
        Parsed parsed = last;
        if (url == null || url.equals(parsed.url())) {
            return url == null ? Attributes.empty() : parsed.attributes();
        }
        parsed = new Parsed(url, parse(url));
        last = parsed;
        return parsed.attributes();
    }

    private static Attributes parse(String url) {
        try {
            URI uri = URI.create(url);
            if (uri.getHost() == null) {
                return Attributes.empty();
            }
            return uri.getPort() < 0 ? Attributes.of(ADDRESS, uri.getHost())
                    : Attributes.of(ADDRESS, uri.getHost(), PORT, (long) uri.getPort());
        } catch (IllegalArgumentException notAUri) {
            return Attributes.empty();
        }
    }
}
