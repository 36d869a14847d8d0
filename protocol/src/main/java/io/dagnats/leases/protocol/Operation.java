package io.dagnats.leases.protocol;

/** The five lease endpoints of the {@code dagnats-api} service. */
public enum Operation {
    ACQUIRE("acquire"),
    RENEW("renew"),
    RELEASE("release"),
    OWNER("owner"),
    FORWARD("forward");

    private final String endpointName;
    private final String subject;

    Operation(String endpointName) {
        this.endpointName = endpointName;
        this.subject = LeaseSubjects.API_PREFIX + endpointName;
    }

    /** The endpoint's name in the service ({@code acquire}); also what telemetry calls the operation. */
    public String endpointName() {
        return endpointName;
    }

    /** The subject callers request ({@code api.leases.acquire}). */
    public String subject() {
        return subject;
    }
}
