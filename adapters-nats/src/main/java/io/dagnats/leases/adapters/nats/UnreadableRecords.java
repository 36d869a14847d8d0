package io.dagnats.leases.adapters.nats;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stored records a listing passed over because they are not leases this
 * service wrote: each is logged once, one line, not at every page that meets it.
 * A record is its stream sequence, so a new unreadable write to the same key is
 * logged again; only the last {@value #REMEMBERED} are remembered.
 */
final class UnreadableRecords {

    private static final System.Logger LOG = System.getLogger(UnreadableRecords.class.getName());
    static final int REMEMBERED = 1024;

    private final Map<Long, Boolean> logged = new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    };

    /** @return whether this call logged it (the first time the record was passed over) */
    synchronized boolean passedOver(long sequence, LeaseRecord.UnreadableRecord record) {
        if (logged.putIfAbsent(sequence, Boolean.TRUE) != null) {
            return false;
        }
        LOG.log(System.Logger.Level.WARNING, "dagnats: list leaves out a stored record: " + record.getMessage());
        return true;
    }
}
