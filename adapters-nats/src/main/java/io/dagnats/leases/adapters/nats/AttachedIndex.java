package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.KnownLeases;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.LeaseKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Which keys are attached to which member key, as this instance last learnt (ADR-043): by change
 * events in stream order and, at start, by a listing walk that may be older than the events already
 * heard, so while the walk runs a key's entry is only ever replaced by a later revision of it. Only
 * for the {@code freed} events: an entry that is stale makes a compare-and-set that is refused,
 * nothing more. Holds one entry per attached key, and nothing for keys that are not attached.
 *
 * <p>What it holds is memory of the store's revisions, so it belongs to one era of the memory of
 * known leases ({@link KnownLeases.Era}): when the memory forgets (the store went back, repeated a
 * revision, or is another), so does this index, and only records learnt in its era are freed.
 */
final class AttachedIndex {

    private final Map<LeaseKey, Map<LeaseKey, AttachedRecord>> byMember = new HashMap<>();
    private final Map<LeaseKey, LeaseKey> memberOf = new HashMap<>();
    /** While the start's walk runs: the last revision an event showed of each key. */
    private Map<LeaseKey, Long> seenDuringWalk = new HashMap<>();
    private KnownLeases.Era era;

    AttachedIndex(KnownLeases.Era era) {
        this.era = era;
    }

    /** The era what is held was learnt in. */
    synchronized KnownLeases.Era era() {
        return era;
    }

    /**
     * The memory is in era {@code now}: if that is a later one, everything held is forgotten. An era
     * only moves forward (each forget of the memory counts up): a call begun in an earlier era (a page
     * of the start walk begun before the memory forgot) says nothing of the era the memory is in.
     */
    synchronized void in(KnownLeases.Era now) {
        if (now.forgets() > era.forgets()) {
            byMember.clear();
            memberOf.clear();
            era = now;
        }
    }

    /** A key written at {@code sequence}: whatever it was attached to before, it is not any more. */
    synchronized void rewritten(LeaseKey key, long sequence) {
        if (seenDuringWalk != null) {
            seenDuringWalk.merge(key, sequence, Math::max);
        }
        remove(key);
    }

    /** An attach or move event's record. */
    synchronized void attached(AttachedRecord record) {
        remove(record.key());
        byMember.computeIfAbsent(record.attachment().member(), member -> new HashMap<>()).put(record.key(), record);
        memberOf.put(record.key(), record.attachment().member());
    }

    /** A record the start's listing, begun in era {@code walked}, found, unless an event showed the key at that revision or later. */
    synchronized void listed(AttachedRecord record, KnownLeases.Era walked) {
        if (!walked.equals(era)) {
            return;
        }
        Long seen = seenDuringWalk == null ? null : seenDuringWalk.get(record.key());
        if (seen == null || seen < record.revision().revision()) {
            attached(record);
        }
    }

    /** The start's walk is over: events alone keep the index from now on. */
    synchronized void walked() {
        seenDuringWalk = null;
    }

    /** Removes and returns the keys attached to {@code member} in a tenure that began before {@code sequence}. */
    synchronized List<AttachedRecord> endedBefore(LeaseKey member, long sequence) {
        Map<LeaseKey, AttachedRecord> keys = byMember.get(member);
        List<AttachedRecord> ended = new ArrayList<>();
        if (keys == null) {
            return ended;
        }
        for (Iterator<AttachedRecord> it = keys.values().iterator(); it.hasNext(); ) {
            AttachedRecord record = it.next();
            if (record.attachment().memberTenure().revision() < sequence) {
                ended.add(record);
                it.remove();
                memberOf.remove(record.key());
            }
        }
        if (keys.isEmpty()) {
            byMember.remove(member);
        }
        return ended;
    }

    private void remove(LeaseKey key) {
        LeaseKey member = memberOf.remove(key);
        if (member != null) {
            Map<LeaseKey, AttachedRecord> keys = byMember.get(member);
            keys.remove(key);
            if (keys.isEmpty()) {
                byMember.remove(member);
            }
        }
    }
}
