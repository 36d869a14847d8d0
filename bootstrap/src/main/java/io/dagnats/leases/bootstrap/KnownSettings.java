package io.dagnats.leases.bootstrap;

import io.dagnats.leases.cli.ServiceLauncher;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Every environment variable dagnats reads, with its meaning and default, in
 * the order {@code dagnats --help} lists them. One list: the help prints it,
 * the strict check refuses a {@code DAGNATS_} name that is not in it, and
 * {@code KnownSettingsTest} fails when the settings code reads a variable
 * missing from it, so the three cannot drift apart.
 */
public final class KnownSettings {

    /** The family of OpenTelemetry's own variables, which the SDK's autoconfigure reads and checks. */
    static final String OTEL_FAMILY = "OTEL_*";

    private static final List<ServiceLauncher.Setting> ALL = List.of(
            setting("NATS_URL", "server URL(s), comma-separated; tls:// for TLS (default "
                    + ConnectionSettings.DEFAULT_NATS_URL + ")"),
            setting("NATS_CREDS", "a .creds file (JWT + nkey)"),
            setting("NATS_NKEY", "a file holding an nkey seed"),
            setting("NATS_USER", "user name, with NATS_PASSWORD"),
            setting("NATS_PASSWORD", "password, with NATS_USER"),
            setting("NATS_TOKEN", "an authentication token (one way to authenticate at most)"),
            setting("NATS_CA", "PEM file of the CA(s) to trust for TLS (default: the JVM's trust store)"),
            setting("NATS_CERT", "PEM client certificate for mutual TLS, with NATS_KEY"),
            setting("NATS_KEY", "its unencrypted PKCS#8 PEM key"),
            setting("DAGNATS_LEASE_REPLICAS", "replicas of the leases bucket when dagnats creates it, and the fewest"
                    + " an existing one may have (1 to 5, default 1; 3 in a cluster)"),
            setting("DAGNATS_MARKER_TTL_SECONDS", "how long expiry markers and release tombstones stay (seconds,"
                    + " default 60)"),
            setting("DAGNATS_JETSTREAM_TIMEOUT_MS", "how long one JetStream request may take (100 to 60000,"
                    + " default 2000)"),
            setting("DAGNATS_DRAIN_TIMEOUT_MS", "how long a stop waits for requests in flight (default 10000)"),
            setting("DAGNATS_IDENTITY", "off (default) or accounts: callers known by their NATS account, keys per"
                    + " account (ADR-036)"),
            setting("DAGNATS_IDENTITY_ACCOUNT", "with DAGNATS_IDENTITY=accounts: the account dagnats runs in; its own"
                    + " requests are refused"),
            setting("DAGNATS_IDENTITY_OPERATORS", "with DAGNATS_IDENTITY=accounts: operator accounts, comma-separated,"
                    + " that may revoke and list across accounts"),
            setting(HttpSettings.PORT, "serve /livez, /readyz and /metrics (Prometheus) over HTTP on this port"
                    + " (0: any free one, named in the start line; default: no HTTP)"),
            setting(HttpSettings.ADDRESS, "the address that port listens on (default 127.0.0.1, this host only;"
                    + " 0.0.0.0 in a container, for the kubelet and Prometheus)"),
            setting(OTEL_FAMILY, "OpenTelemetry SDK autoconfigure: exporters, endpoints, sampling"
                    + " (docs/telemetry.md; default: telemetry off)"));

    private KnownSettings() {
    }

    private static ServiceLauncher.Setting setting(String name, String meaning) {
        return new ServiceLauncher.Setting(name, meaning);
    }

    /** Each variable with its meaning, in the help's order. */
    public static List<ServiceLauncher.Setting> all() {
        return ALL;
    }

    /** The {@code DAGNATS_} names: any other {@code DAGNATS_} variable is a mistake that stops the start. */
    static Set<String> dagnatsNames() {
        return ALL.stream().map(ServiceLauncher.Setting::name).filter(name -> name.startsWith("DAGNATS_"))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
