package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.InvalidLeaseInput;

/**
 * The one place a request's failure becomes an error kind and its sentence.
 * Outcomes the domain answers with (lost, no owner) are values and never come
 * here; this is for what was thrown: bad input, an infrastructure failure that
 * names its kind, and bugs.
 */
final class Failures {

    private static final System.Logger LOG = System.getLogger(Failures.class.getName());

    private Failures() {
    }

    /** The error reply for {@code thrown}, which ended a request for {@code operation}. */
    static Answer answer(String operation, Throwable thrown) {
        WireFailure failure = classify(operation, thrown);
        return Answer.failed(failure.kind(), failure.sentence());
    }

    /**
     * The kind and sentence for {@code thrown} (as thrown, or as a stage completed
     * with it). Internal failures are logged here, once per request: the reply only
     * points at the log.
     */
    static WireFailure classify(String operation, Throwable thrown) {
        Throwable cause = Stages.cause(thrown);
        if (cause instanceof InvalidLeaseInput invalid) {
            return new WireFailure(ErrorKind.INVALID, invalid.getMessage());
        }
        if (cause instanceof LeaseFailure failure) {
            if (failure.kind() == ErrorKind.INTERNAL) {
                LOG.log(System.Logger.Level.WARNING, operation + " failed: " + failure.getMessage());
            }
            return new WireFailure(failure.kind(), failure.getMessage());
        }
        LOG.log(System.Logger.Level.ERROR, operation + " failed unexpectedly", cause);
        return new WireFailure(ErrorKind.INTERNAL, "dagnats failed to answer this " + operation + "; see its log");
    }
}
