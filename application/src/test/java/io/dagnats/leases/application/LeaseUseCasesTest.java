package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Lost;
import io.dagnats.leases.domain.Release;
import io.dagnats.leases.domain.Renewal;
import io.dagnats.leases.domain.Revocation;
import io.dagnats.leases.domain.RevokeReason;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

class LeaseUseCasesTest {

    private static final LeaseKey KEY = new LeaseKey("notify-leader");
    private static final HolderId ALICE = new HolderId("alice");
    private static final HolderId BOB = new HolderId("bob");
    private static final LeaseTtl TTL = LeaseTtl.ofSeconds(15);

    private final TestingClock clock = new TestingClock(Instant.parse("2026-10-18T12:00:00Z"));
    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final KnownLeases known = new KnownLeases(1_000);
    private final AcquireLease acquire = new AcquireLease(store, known, clock);
    private final RenewLease renew = new RenewLease(store, known, clock);
    private final ReleaseLease release = new ReleaseLease(store, known, clock);
    private final RevokeLease revoke = new RevokeLease(store, known, clock);
    private static final RevokeReason WHY = new RevokeReason("stuck after a GC pause");

    @Test
    void acquireGrantsAFreeKeyAndStartsATenure() {
        Lease lease = granted(acquire(ALICE));

        assertEquals(ALICE, lease.holder());
        assertEquals(lease.revision(), lease.tenure());
        assertEquals(clock.instant(), lease.acquiredAt());
        assertEquals(clock.instant().plusSeconds(15), lease.expiresAt());
    }

    @Test
    void acquireByCurrentHolderDoesNotExtendTtl() {
        Lease first = granted(acquire(ALICE));
        clock.advance(Duration.ofSeconds(5));

        Lease again = granted(acquire(ALICE));

        assertEquals(first, again);
        assertEquals(1, store.applied().size());
    }

    @Test
    void contendedAcquireNamesTheOwner() {
        Lease alices = granted(acquire(ALICE));

        Acquisition answer = join(acquire.execute(new AcquireLease.Command(KEY, BOB, TTL)));

        Acquisition.HeldByOther other = assertInstanceOf(Acquisition.HeldByOther.class, answer);
        assertEquals(alices, other.lease());
    }

    @Test
    void anAcquireThatLosesTheRaceAnswersWithTheWinner() {
        store.interleaveBeforeNextWrite(() -> join(acquire.execute(new AcquireLease.Command(KEY, BOB, TTL))));

        Acquisition answer = join(acquire.execute(new AcquireLease.Command(KEY, ALICE, TTL)));

        Acquisition.HeldByOther other = assertInstanceOf(Acquisition.HeldByOther.class, answer);
        assertEquals(BOB, other.lease().holder());
        assertEquals(1, store.applied().size());
    }

    @Test
    void renewRaisesTheFenceInsideTheSameTenure() {
        Lease lease = granted(acquire(ALICE));
        clock.advance(Duration.ofSeconds(5));

        Renewal renewal = join(renew.execute(new RenewLease.Command(KEY, ALICE, lease.revision(), Optional.empty())));

        Lease renewed = assertInstanceOf(Renewal.Renewed.class, renewal).lease();
        assertTrue(lease.revision().isBelow(renewed.revision()));
        assertEquals(lease.tenure(), renewed.tenure());
        assertEquals(lease.acquiredAt(), renewed.acquiredAt());
        assertEquals(TTL, renewed.ttl());
        assertEquals(clock.instant().plusSeconds(15), renewed.expiresAt());
    }

    @Test
    void renewWithStaleFenceIsLostAndWritesNothing() {
        Lease lease = granted(acquire(ALICE));
        join(renew.execute(new RenewLease.Command(KEY, ALICE, lease.revision(), Optional.empty())));

        Renewal stale = join(renew.execute(new RenewLease.Command(KEY, ALICE, lease.revision(), Optional.empty())));

        assertEquals(Lost.Reason.STALE_FENCE, assertInstanceOf(Lost.class, stale).reason());
        assertEquals(2, store.applied().size());
    }

    @Test
    void renewAfterExpiryIsLost() {
        Lease lease = granted(acquire(ALICE));
        store.expire(KEY);

        Renewal renewal = join(renew.execute(new RenewLease.Command(KEY, ALICE, lease.revision(), Optional.empty())));

        assertEquals(Lost.Reason.NOT_HELD, assertInstanceOf(Lost.class, renewal).reason());
    }

    @Test
    void releaseThenAcquireByAnotherHolderGetsAHigherFence() {
        Lease alices = granted(acquire(ALICE));

        Release released = join(release.execute(new ReleaseLease.Command(KEY, ALICE, alices.revision())));
        Fence releaseFence = assertInstanceOf(Release.Released.class, released).revision();
        Lease bobs = granted(acquire(BOB));

        assertTrue(alices.revision().isBelow(releaseFence));
        assertTrue(releaseFence.isBelow(bobs.revision()));
        assertInstanceOf(KeyState.Held.class, join(store.read(KEY)));
    }

    @Test
    void releaseByAnotherHolderIsLost() {
        Lease alices = granted(acquire(ALICE));

        Release answer = join(release.execute(new ReleaseLease.Command(KEY, BOB, alices.revision())));

        assertEquals(Lost.Reason.HELD_BY_OTHER, assertInstanceOf(Lost.class, answer).reason());
    }

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

    @Test
    void revokeFreesTheKeySoTheHoldersRenewIsLostAndAnotherHolderAcquires() {
        Lease alices = granted(acquire(ALICE));

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.empty())));

        Revocation.Revoked revoked = assertInstanceOf(Revocation.Revoked.class, answer);
        assertEquals(ALICE, revoked.holder());
        assertEquals(alices.revision(), revoked.revokedRevision());
        assertTrue(alices.revision().isBelow(revoked.revision()));
        LeaseWrite.Tombstone tombstone = assertInstanceOf(LeaseWrite.Tombstone.class, store.applied().get(1));
        assertEquals(Optional.of(WHY), tombstone.revokeReason());
        Renewal renewal = join(renew.execute(new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty())));
        assertEquals(Lost.Reason.NOT_HELD, assertInstanceOf(Lost.class, renewal).reason());
        assertTrue(revoked.revision().isBelow(granted(acquire(BOB)).revision()));
    }

    @Test
    void revokeOfAFreeKeyWritesNothing() {
        assertEquals(new Revocation.Free(KEY), join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.empty()))));
        assertEquals(0, store.applied().size());
    }

    @Test
    void revokeUnderAFenceThatIsNotCurrentAnswersTheCurrentLeaseAndWritesNothing() {
        Lease alices = granted(acquire(ALICE));

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.of(new Fence(alices.revision().revision() + 1)))));

        assertEquals(new Revocation.NotCurrent(alices), answer);
        assertEquals(1, store.applied().size());
    }

    @Test
    void aRevokeThatLosesARaceToARenewRevokesTheRenewedLeaseWhenNoRevisionWasGiven() {
        Lease alices = granted(acquire(ALICE));
        store.interleaveBeforeNextWrite(() -> join(renew.execute(
                new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty()))));

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.empty())));

        Revocation.Revoked revoked = assertInstanceOf(Revocation.Revoked.class, answer);
        assertTrue(alices.revision().isBelow(revoked.revokedRevision()), "the renewed fence was revoked");
    }

    @Test
    void aRevokeUnderAFenceThatLosesARaceToARenewAnswersTheRenewedLease() {
        Lease alices = granted(acquire(ALICE));
        store.interleaveBeforeNextWrite(() -> join(renew.execute(
                new RenewLease.Command(KEY, ALICE, alices.revision(), Optional.empty()))));

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.of(alices.revision()))));

        Revocation.NotCurrent notCurrent = assertInstanceOf(Revocation.NotCurrent.class, answer);
        assertTrue(alices.revision().isBelow(notCurrent.lease().revision()));
        assertInstanceOf(KeyState.Held.class, join(store.read(KEY)));
    }

    @Test
    void aRevokeWithoutRevisionThatLosesARaceToAReleaseAndAnotherHoldersAcquireEndsNothing() {
        Lease alices = granted(acquire(ALICE));
        store.interleaveBeforeNextWrite(() -> {
            join(release.execute(new ReleaseLease.Command(KEY, ALICE, alices.revision())));
            granted(acquire(BOB));
        });

        Revocation answer = join(revoke.execute(new RevokeLease.Command(KEY, WHY, Optional.empty())));

        Revocation.NotCurrent notCurrent = assertInstanceOf(Revocation.NotCurrent.class, answer);
        assertEquals(BOB, notCurrent.lease().holder());
        assertEquals(new KeyState.Held(notCurrent.lease()), join(store.read(KEY)), "bob still holds, as answered");
    }

    @Test
    void aRevokeWithoutRevisionDecidedOnAReadThatLosesARaceToAnotherTenureEndsNothing() {
        Lease alices = granted(acquire(ALICE));
        RevokeLease unremembering = new RevokeLease(store, new KnownLeases(1_000), clock);
        store.interleaveBeforeNextWrite(() -> {
            join(release.execute(new ReleaseLease.Command(KEY, ALICE, alices.revision())));
            granted(acquire(ALICE));
        });

        Revocation answer = join(unremembering.execute(new RevokeLease.Command(KEY, WHY, Optional.empty())));

        Revocation.NotCurrent notCurrent = assertInstanceOf(Revocation.NotCurrent.class, answer);
        assertTrue(alices.tenure().isBelow(notCurrent.lease().tenure()), "a new tenure of the same holder is not revoked");
        assertInstanceOf(KeyState.Held.class, join(store.read(KEY)));
    }

    private Acquisition acquire(HolderId holder) {
        return join(acquire.execute(new AcquireLease.Command(KEY, holder, TTL)));
    }

    private static Lease granted(Acquisition acquisition) {
        return assertInstanceOf(Acquisition.Granted.class, acquisition).lease();
    }

    private static <T> T join(CompletionStage<T> stage) {
        return stage.toCompletableFuture().join();
    }
}
