package io.dagnats.leases.bootstrap;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Probes and metrics over HTTP ({@code /livez}, {@code /readyz}, {@code /metrics}): off
 * unless {@code DAGNATS_HTTP_PORT} is set. They listen on {@code DAGNATS_HTTP_ADDRESS},
 * 127.0.0.1 unless set, so nothing is reachable from elsewhere until the operator says so
 * (in a container, 0.0.0.0: the kubelet and Prometheus come from outside it).
 *
 * @param address where to listen; empty when HTTP is off. Port 0 takes any free port.
 */
public record HttpSettings(Optional<InetSocketAddress> address) {

    static final String PORT = "DAGNATS_HTTP_PORT";
    static final String ADDRESS = "DAGNATS_HTTP_ADDRESS";
    static final String DEFAULT_ADDRESS = "127.0.0.1";

    public static final HttpSettings OFF = new HttpSettings(Optional.empty());

    /** @throws IllegalArgumentException naming the setting that is wrong */
    static HttpSettings from(EnvironmentReader reader) {
        Optional<String> host = reader.text(ADDRESS);
        if (reader.text(PORT).isEmpty()) {
            if (host.isPresent()) {
                throw new IllegalArgumentException(ADDRESS + " needs " + PORT + ": without a port dagnats serves no HTTP");
            }
            return OFF;
        }
        int port = (int) reader.number(PORT, 0, 0, 65_535);
        String name = host.orElse(DEFAULT_ADDRESS);
        try {
            return new HttpSettings(Optional.of(new InetSocketAddress(InetAddress.getByName(name), port)));
        } catch (UnknownHostException unknown) {
            throw new IllegalArgumentException(ADDRESS + " must be an address of this host, such as 127.0.0.1 or"
                    + " 0.0.0.0, not \"" + name + "\"", unknown);
        }
    }
}
