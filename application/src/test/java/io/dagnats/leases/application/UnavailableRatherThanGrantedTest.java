package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Release;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** Endless contention and a store withholding grants answer unavailable, and write nothing that could become ownership. */
class UnavailableRatherThanGrantedTest extends LeaseUseCasesFixture {

    @Test
    void endlessContentionEndsAsUnavailableRatherThanLooping() {
        LeaseStore churning = new LeaseStore() {
            @Override
            public CompletionStage<KeyState> read(LeaseKey key) {
                return store.read(key);
            }

            @Override
            public CompletionStage<WriteOutcome> write(LeaseWrite write) {
                return CompletableFuture.completedFuture(new WriteOutcome.Conflict());
            }

            @Override
            public Identity identity() {
                return store.identity();
            }

            @Override
            public CompletionStage<Optional<String>> report(Evidence evidence) {
                return store.report(evidence);
            }
        };

        CompletionException failure = assertThrows(CompletionException.class,
                () -> join(new AcquireLease(churning, KnownLeases.none(), clock).execute(new AcquireLease.Command(KEY, ALICE, TTL))));

        assertEquals(ErrorKind.UNAVAILABLE, assertInstanceOf(LeaseFailure.class, failure.getCause()).kind());
    }

    @Test
    void aWithheldGrantAnswersUnavailableWithTheStoresReasonAndWritesNothing() {
        store.withholdGrants("no free key is granted until 2026-10-18T12:10:07.100Z");

        CompletionException failure = assertThrows(CompletionException.class,
                () -> acquire(ALICE));

        LeaseFailure unavailable = assertInstanceOf(LeaseFailure.class, failure.getCause());
        assertEquals(ErrorKind.UNAVAILABLE, unavailable.kind());
        assertTrue(unavailable.getMessage().contains("until 2026-10-18T12:10:07.100Z"), unavailable.getMessage());
        assertEquals(0, store.applied().size());
    }

    /**
     * During the grace no lease in the replacement can be legitimate: one that reached it anyway
     * (a stale instance, a raw write, a timed-out acquire flushed after a reconnect) is answered
     * from the record, but its renew is withheld, so it never becomes ownership; a release passes.
     */
    @Test
    void whileGrantsAreWithheldAHeldKeyIsAnsweredButNotRenewed() {
        Lease alices = granted(acquire(ALICE));
        known.begin(new LeaseStore.Identity("forget", true));
        store.withholdGrants("no free key is granted until later");

        assertEquals(alices, granted(acquire(ALICE)));
        assertInstanceOf(Acquisition.HeldByOther.class, acquire(BOB));
        CompletionException renewing = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class,
                () -> join(renew.execute(new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty()))));
        LeaseFailure unavailable = assertInstanceOf(LeaseFailure.class, renewing.getCause());
        assertEquals(ErrorKind.UNAVAILABLE, unavailable.kind());
        assertTrue(unavailable.getMessage().contains("until later"), unavailable.getMessage());
        assertEquals(1, store.applied().size(), "nothing written but the grant before the grace");
        assertInstanceOf(Release.Released.class, join(release.execute(new ReleaseLease.Command(KEY, ALICE, alices.revision()))));
    }
}
