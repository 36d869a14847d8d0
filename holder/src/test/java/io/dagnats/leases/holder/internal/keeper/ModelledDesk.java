package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.internal.candidacy.CandidateDesk;
import io.dagnats.leases.holder.internal.candidacy.DeskWire;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The real {@link CandidateDesk} of one {@link ModelledKeeper}, standing for its key from the start,
 * on a connection that connects to nothing: dagnats' check and grant are handed to the desk's
 * handler as NATS would, its answers noted, and its seat is the modelled keeper, as {@code KeptKeys}
 * makes it (a yes tells the keeper to expect the key, a grant is the keeper's {@code Granted}).
 */
final class ModelledDesk {

    /** When the last change event reaches this keeper: its subscription keeps the server's order. */
    long lastEvent;
    private final ModelledKeeper keeper;
    private final DeskWire wire;
    private final CandidateDesk desk;

    ModelledDesk(ModelledKeeper keeper, MonotonicClock clock) {
        this.keeper = keeper;
        this.wire = new DeskWire(keeper.self);
        this.desk = new CandidateDesk(wire.connection(), keeper.self, clock);
        desk.stand(KeeperHarness.KEY, new KeepOptions.Priority(0, "1.0"), new CandidateDesk.Seat() {
            @Override
            public boolean waiting() {
                return keeper.waiting();
            }

            @Override
            public boolean owner() {
                return keeper.believed.isPresent();
            }

            @Override
            public void expecting(boolean granting) {
                keeper.on(new KeeperEvent.Expecting(granting));
            }

            @Override
            public void granted(LeaseView lease, long saidAt) {
                keeper.on(new KeeperEvent.Granted(lease, saidAt));
            }
        });
    }

    /** dagnats' targeted check under {@code check}: whether the desk said yes. */
    boolean ask(String check) {
        return wire.check(KeeperHarness.KEY, check);
    }

    /** dagnats' grant of the yes to {@code check}: the handover's reply, on the same subject. */
    void grant(String check, LeaseView view) {
        wire.grant(check, new Lease(view.key(), view.holder(), view.incarnation(), view.revision(),
                view.tenure().orElseThrow(), view.acquiredAt(), view.acquiredAt(), view.ttl()));
    }

    void heard(LeaseChange change) {
        desk.heard(change);
    }

    void withdraw() {
        desk.withdraw(KeeperHarness.KEY);
    }

    /** A write's change event as the server republishes it: a handover's names its check (ADR-047). */
    static Optional<LeaseChange> change(String kind, long sequence, Claimant by, LeaseTtl ttl, Optional<String> check) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", Long.toString(sequence));
        if (kind.equals("expired")) {
            headers.put("Nats-Marker-Reason", "MaxAge");
        } else {
            headers.put(LeaseHeaders.EVENT, kind);
            headers.put(LeaseHeaders.HOLDER, by.holder().value());
            by.incarnation().ifPresent(incarnation -> headers.put(LeaseHeaders.INCARNATION, incarnation.value()));
            headers.put("Nats-TTL", ttl.seconds() + "s");
            check.ifPresent(id -> headers.put(LeaseHeaders.CHECK, id));
        }
        return LeaseChange.read(LeaseSubjects.changed(KeeperHarness.KEY), headers::get, Instant.EPOCH);
    }
}
