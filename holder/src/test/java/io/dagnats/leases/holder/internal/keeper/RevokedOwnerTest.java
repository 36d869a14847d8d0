package io.dagnats.leases.holder.internal.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener.StopReason;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An owner whose lease an operator revoked is told {@link StopReason#REVOKED}, not {@code LOST}, and
 * its log line names the revoke as the operator's act and this process as the one that stops: the
 * holder a revoke event names is the lease that ended, not who revoked it.
 */
class RevokedOwnerTest {

    private static final long NOW = 1_000_000_000_000L;
    private static final KeeperRules RULES = new KeeperRules(KeeperHarness.KEY, KeeperHarness.SELF,
            KeeperHarness.TTL, bound -> 0);
    private static final Tenure TENURE = Tenure.begin(KeeperHarness.KEY, KeeperHarness.ME, new Fence(5),
            NOW - 1_000_000_000L, KeeperHarness.TTL);

    private static List<KeeperEffect> ownerSees(Map<String, String> headers) {
        LeaseChange change = LeaseChange.read(LeaseSubjects.changed(KeeperHarness.KEY), headers::get, Instant.EPOCH)
                .orElseThrow();
        return RULES.next(new KeeperState.Owning(TENURE, 1), KeeperMemory.FRESH,
                new KeeperEvent.Changed(java.util.Optional.of(change)), new EventTime(NOW, Instant.EPOCH)).effects();
    }

    private static String logged(List<KeeperEffect> effects) {
        return effects.stream().filter(KeeperEffect.Log.class::isInstance).map(KeeperEffect.Log.class::cast)
                .map(KeeperEffect.Log::line).findFirst().orElseThrow();
    }

    private static StopReason stopped(List<KeeperEffect> effects) {
        return effects.stream().filter(KeeperEffect.StopOwning.class::isInstance)
                .map(effect -> ((KeeperEffect.StopOwning) effect).reason()).findFirst().orElseThrow();
    }

    /** The headers of a message at revision 7 of the key. */
    private static Map<String, String> atRevision7() {
        Map<String, String> headers = new HashMap<>();
        headers.put("Nats-Sequence", "7");
        return headers;
    }

    /** dagnats' revoke event at revision 7 that ends this owner's lease (fence 6), with the operator's reason. */
    private static Map<String, String> revokeOfThisOwner() {
        Map<String, String> headers = atRevision7();
        headers.put(LeaseHeaders.EVENT, "revoked");
        headers.put(LeaseHeaders.HOLDER, KeeperHarness.ME.value());
        headers.put(LeaseHeaders.FENCE, "6");
        headers.put(LeaseHeaders.REASON, "moving the job to eu-west");
        return headers;
    }

    /** The owner's log line for {@link #revokeOfThisOwner}, revoked by {@code by}. */
    private static String revokedLine(String by) {
        return "lease " + KeeperHarness.KEY + " revoked by " + by + " at revision 7: moving the job to eu-west;"
                + " this process (holder " + KeeperHarness.ME + ") stops acting as owner";
    }

    @Test
    void anOperatorsRevokeStopsTheOwnerAsRevokedAndTheLogNamesTheOperatorNotThisHolder() {
        List<KeeperEffect> effects = ownerSees(revokeOfThisOwner());

        assertEquals(StopReason.REVOKED, stopped(effects));
        assertEquals(revokedLine("an operator"), logged(effects));
    }

    @Test
    void aRevokeThatNamesItsRevokerIsLoggedWithTheirName() {
        Map<String, String> headers = revokeOfThisOwner();
        headers.put(LeaseHeaders.REVOKED_BY, "alice@ops-1");

        List<KeeperEffect> effects = ownerSees(headers);

        assertEquals(StopReason.REVOKED, stopped(effects));
        assertEquals(revokedLine("alice@ops-1"), logged(effects));
    }

    @Test
    void aKeyRemovedWithNatsOwnToolsStopsTheOwnerAsRevokedAndTheLogSaysSo() {
        Map<String, String> headers = atRevision7();
        headers.put("KV-Operation", "DEL");

        List<KeeperEffect> effects = ownerSees(headers);

        assertEquals(StopReason.REVOKED, stopped(effects));
        String line = logged(effects);
        assertTrue(line.startsWith("lease " + KeeperHarness.KEY + " revoked at revision 7: removed with NATS' own tools"),
                line);
        assertTrue(line.endsWith("; this process (holder " + KeeperHarness.ME + ") stops acting as owner"), line);
    }

    @Test
    void anotherEndOfTheLeaseIsStillLost() {
        Map<String, String> headers = atRevision7();
        headers.put("Nats-Marker-Reason", "MaxAge");

        assertEquals(StopReason.LOST, stopped(ownerSees(headers)));
    }
}
