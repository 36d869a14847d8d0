package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;

/** The key, holder and incarnation the request tests send. */
final class RequestExamples {

    static final LeaseKey KEY = new LeaseKey("k");
    static final HolderId HOLDER = new HolderId("h");
    static final Incarnation RUN = new Incarnation("run-1");

    private RequestExamples() {
    }
}
