package io.dagnats.leases.cli;

import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every held lease under a prefix, walked page by page over {@code api.leases.list}
 * and sorted by key. A key renewed during the walk may come twice: the higher
 * revision is the later write, and is kept.
 */
final class LeaseListing {

    private LeaseListing() {
    }

    /** @param pages answers one page request ({@link DagnatsCalls#list}) */
    static List<LeaseView> walk(Function<ListRequest, Answers.Listing> pages, KeyPrefix prefix, int pageSize) {
        Map<LeaseKey, LeaseView> byKey = new HashMap<>();
        ListRequest request = ListRequest.first(prefix, pageSize);
        while (true) {
            Answers.Listing page = pages.apply(request);
            for (LeaseView lease : page.leases()) {
                byKey.merge(lease.key(), lease, LeaseListing::later);
            }
            Optional<String> next = page.nextCursor();
            if (next.isEmpty()) {
                break;
            }
            if (next.equals(request.cursor())) {
                throw new CliFailure("dagnats answered the listing with the cursor it was sent: stopped, to not loop");
            }
            request = request.next(next.get());
        }
        return byKey.values().stream().sorted(Comparator.comparing(lease -> lease.key().value())).toList();
    }

    private static LeaseView later(LeaseView one, LeaseView other) {
        return one.revision().compareTo(other.revision()) >= 0 ? one : other;
    }
}
