package io.dagnats.leases.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.LeaseView;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** How {@code dagnats shards} prints: a table for people, one JSON object for scripts. */
final class ShardsOutput {

    private static final String DERIVED = "the number of shards is stored nowhere: taken as one more than the"
            + " highest shard key held (--shards M names it)";

    private final PrintWriter out;
    private final Instant now;

    ShardsOutput(PrintWriter out, Instant now) {
        this.out = out;
        this.now = now;
    }

    /** Every set found: a row each. */
    void sets(List<ShardSetView> views, boolean json) {
        if (json) {
            out.println(JsonObjects.text(generator -> {
                generator.writeArrayFieldStart("sets");
                for (ShardSetView view : views) {
                    generator.writeStartObject();
                    summary(generator, view);
                    generator.writeEndObject();
                }
                generator.writeEndArray();
                generator.writeNumberField("count", views.size());
            }));
            return;
        }
        if (!views.isEmpty()) {
            Table table = new Table("SET", "SHARDS", "MEMBERS", "OWNED", "WITHOUT OWNER", "BALANCED");
            for (ShardSetView view : views) {
                table.row(view.name(), Integer.toString(view.shardCount()), Integer.toString(view.members().size()),
                        Integer.toString(view.owners().size()), Integer.toString(view.unowned().size()),
                        view.balanced() ? "yes" : "no");
            }
            table.print(out);
        }
        out.println(Human.count(views.size(), "shard set") + (views.isEmpty() ? "" : "; " + DERIVED));
    }

    /** One set (one per account in identity mode) in full. */
    void details(List<ShardSetView> views, boolean json) {
        if (json) {
            out.println(JsonObjects.text(generator -> {
                generator.writeArrayFieldStart("sets");
                for (ShardSetView view : views) {
                    generator.writeStartObject();
                    detail(generator, view);
                    generator.writeEndObject();
                }
                generator.writeEndArray();
            }));
            return;
        }
        for (int i = 0; i < views.size(); i++) {
            if (i > 0) {
                out.println();
            }
            detail(views.get(i));
        }
    }

    private void detail(ShardSetView view) {
        out.println("shard set " + view.name() + ": " + Human.count(view.shardCount(), "shard") + ", "
                + Human.count(view.members().size(), "member") + quota(view) + ": " + verdict(view));
        if (view.countDerived() && view.shardCount() > 0) {
            out.println(DERIVED);
        }
        if (!view.members().isEmpty()) {
            out.println(String.format(java.util.Locale.ROOT, "keep-alive: %.1f writes/s (the %s renewed every"
                    + " third of its TTL, shards attached to them); a lease per shard would cost %.1f writes/s",
                    view.keepAlivePerSecond(), Human.count(view.members().size(), "member lease"),
                    view.perShardLeasesPerSecond()));
            if (view.toMove() > 0) {
                out.println("moves to make: " + Human.count(view.toMove(), "shard") + " owned over their members'"
                        + " targets (each round moves at most the members' budget; a drain under way shows as owned)");
            }
            out.println();
            Table members = new Table("MEMBER", "CAPACITY", "TARGET", "SHARDS", "MEMBER KEY", "REVISION", "EXPIRES IN");
            for (ShardSetView.Member member : view.members()) {
                members.row(member.holder().value(), Integer.toString(member.capacity()), Integer.toString(member.target()),
                        owns(member), member.lease().key().value(), member.lease().revision().toString(),
                        expiresIn(member.lease()));
            }
            members.print(out);
        }
        if (view.shardCount() > 0) {
            out.println();
            Table shards = new Table("SHARD", "OWNER", "FENCE", "EXPIRES IN");
            for (int shard = 0; shard < view.shardCount(); shard++) {
                LeaseView lease = view.owners().get(shard);
                if (lease == null) {
                    shards.row(Integer.toString(shard), "(none)", "", "");
                } else {
                    shards.row(Integer.toString(shard), lease.holder().value()
                            + (view.isMember(lease.holder()) ? "" : " (no member lease)"),
                            lease.revision().toString(), expiresIn(lease));
                }
            }
            shards.print(out);
        }
        for (LeaseView impostor : view.impostors()) {
            out.println("not a member: " + impostor.key().value() + " is held by " + impostor.holder().value()
                    + ", not by the holder it names");
        }
        for (LeaseView beyond : view.beyond()) {
            out.println("beyond --shards " + view.shardCount() + ": " + beyond.key().value() + " is held by "
                    + beyond.holder().value());
        }
    }

    private static String quota(ShardSetView view) {
        if (view.members().isEmpty() || view.shardCount() == 0) {
            return "";
        }
        int capacity = view.members().stream().mapToInt(ShardSetView.Member::capacity).sum();
        return ", targets by capacity (" + view.shardCount() + " x capacity / " + capacity + ", within one shard)";
    }

    private static String owns(ShardSetView.Member member) {
        if (member.owns() > member.target()) {
            return member.owns() + " (over " + member.target() + ")";
        }
        return member.owns() < member.target() ? member.owns() + " (under " + member.target() + ")"
                : Integer.toString(member.owns());
    }

    /** "balanced", or why not. */
    static String verdict(ShardSetView view) {
        if (view.balanced()) {
            return "balanced";
        }
        List<String> why = new ArrayList<>();
        if (view.members().isEmpty()) {
            why.add("no members");
        }
        if (view.shardCount() == 0) {
            why.add("no shard key held");
        }
        List<Integer> unowned = view.unowned();
        if (!unowned.isEmpty()) {
            why.add(Human.count(unowned.size(), "shard") + " without an owner ("
                    + unowned.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")");
        }
        if (view.ownedByNonMembers() > 0) {
            why.add(Human.count((int) view.ownedByNonMembers(), "shard") + " owned by holders with no member lease");
        }
        for (ShardSetView.Member member : view.members()) {
            if (member.owns() != member.target()) {
                why.add(member.holder().value() + " owns " + owns(member));
            }
        }
        return "not balanced: " + String.join("; ", why);
    }

    private String expiresIn(LeaseView lease) {
        return Human.timeLeft(Duration.between(now, lease.expiresAt()));
    }

    private static void summary(JsonGenerator generator, ShardSetView view) throws IOException {
        generator.writeStringField("set", view.set());
        if (view.account().isPresent()) {
            generator.writeStringField("account", view.account().get().value());
        }
        generator.writeNumberField("shards", view.shardCount());
        generator.writeBooleanField("shards_derived", view.countDerived());
        generator.writeNumberField("members", view.members().size());
        generator.writeNumberField("owned", view.owners().size());
        generator.writeNumberField("without_owner", view.unowned().size());
        generator.writeBooleanField("balanced", view.balanced());
    }

    private void detail(JsonGenerator generator, ShardSetView view) throws IOException {
        generator.writeStringField("set", view.set());
        if (view.account().isPresent()) {
            generator.writeStringField("account", view.account().get().value());
        }
        generator.writeNumberField("shards", view.shardCount());
        generator.writeBooleanField("shards_derived", view.countDerived());
        generator.writeNumberField("floor", view.floor());
        generator.writeNumberField("ceiling", view.ceiling());
        generator.writeBooleanField("balanced", view.balanced());
        generator.writeNumberField("to_move", view.toMove());
        generator.writeNumberField("keep_alive_writes_per_second", view.keepAlivePerSecond());
        generator.writeNumberField("per_shard_leases_writes_per_second", view.perShardLeasesPerSecond());
        generator.writeArrayFieldStart("members");
        for (ShardSetView.Member member : view.members()) {
            generator.writeStartObject();
            generator.writeStringField("holder", member.holder().value());
            generator.writeNumberField("owns", member.owns());
            generator.writeNumberField("capacity", member.capacity());
            generator.writeNumberField("target", member.target());
            lease(generator, "member", member.lease());
            generator.writeEndObject();
        }
        generator.writeEndArray();
        generator.writeArrayFieldStart("shard_owners");
        for (Map.Entry<Integer, LeaseView> owned : view.owners().entrySet()) {
            generator.writeStartObject();
            generator.writeNumberField("shard", owned.getKey());
            generator.writeStringField("holder", owned.getValue().holder().value());
            generator.writeBooleanField("member", view.isMember(owned.getValue().holder()));
            lease(generator, "lease", owned.getValue());
            generator.writeEndObject();
        }
        generator.writeEndArray();
        generator.writeArrayFieldStart("without_owner");
        for (int shard : view.unowned()) {
            generator.writeNumber(shard);
        }
        generator.writeEndArray();
    }

    private void lease(JsonGenerator generator, String field, LeaseView lease) throws IOException {
        generator.writeObjectFieldStart(field);
        Json.lease(generator, lease, now);
        generator.writeEndObject();
    }
}
