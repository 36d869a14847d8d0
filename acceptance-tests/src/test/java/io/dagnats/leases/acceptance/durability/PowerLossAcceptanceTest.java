package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.durability.PowerLossExperiment.CutFigures;
import io.dagnats.leases.acceptance.durability.PowerLossExperiment.Workload;
import io.dagnats.leases.acceptance.durability.PowerLossRig.Configuration;
import io.dagnats.leases.acceptance.harness.Reliability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Power cuts: every nats-server and the dagnats instance killed at once and
 * whatever their stores had not fsynced dropped (scripts/lazyfs.py under each
 * store), under holders that follow the holder rules (PowerLossExperiment says
 * what is judged and how).
 *
 * <p>The suite runs the smoke test: two cuts of one node with
 * {@code sync_interval: always}. The full matrix (every configuration, 20 cuts
 * each, about 35 minutes) runs from {@code scripts/power-loss.sh}, which sets
 * {@code power.loss.cuts}; its figures go to docs/reliability.md.
 */
class PowerLossAcceptanceTest {

    private static final Workload ONE_NODE = new Workload(6, Duration.ofSeconds(5), Duration.ofMillis(300),
            Duration.ofSeconds(3));
    private static final Workload CLUSTER = new Workload(6, Duration.ofSeconds(10), Duration.ofMillis(300),
            Duration.ofSeconds(3));

    @BeforeAll
    static void aLazyFilesystemCanBeMounted() {
        Optional<String> refusal = LazyFilesystem.refusal();
        refusal.ifPresent(why -> System.out.println("power-loss test skipped: " + why));
        Assumptions.assumeTrue(refusal.isEmpty(), () -> "power-loss test skipped: " + refusal.orElseThrow());
    }

    @Test
    void powerCutsOfOneNodeWithSyncAlwaysLoseNoAcknowledgedWriteAndGiveNoKeyTwoOwners() throws InterruptedException {
        Configuration configuration = new Configuration(1, true, 0);
        List<CutFigures> figures = PowerLossExperiment.run(configuration, ONE_NODE, 2);
        report(configuration, figures);
        for (CutFigures cut : figures) {
            assertTrue(cut.acknowledged() > 0, "the holders wrote nothing before the cut: " + cut.line());
            assertTrue(cut.bucketKept(), cut.line());
            assertEquals(0, cut.lost(), cut.line());
            assertEquals(0, cut.keysRolledBack(), cut.line());
            assertEquals(0, cut.ownerBehind(), cut.line());
            assertEquals(0, cut.repeated(), cut.line());
            assertEquals(0, cut.overlaps(), cut.line());
        }
    }

    /**
     * Every configuration of {@code power.loss.configurations} (default: one
     * node and 3-node R3, each with the default sync_interval, the default with
     * unsynced data written back after 3 s, and always), {@code power.loss.cuts}
     * cuts each. Reports all; fails only if a {@code sync_interval: always}
     * configuration lost or repeated anything or gave a key two owners.
     */
    @Test
    @EnabledIfSystemProperty(named = "power.loss.cuts", matches = "\\d+")
    void powerCutsInEveryConfiguration() throws InterruptedException {
        int cuts = Integer.getInteger("power.loss.cuts");
        List<String> failures = new ArrayList<>();
        for (String spec : System.getProperty("power.loss.configurations",
                "1:default:0,1:default:3,1:always:0,3:default:0,3:default:3,3:always:0").split(",")) {
            String[] parts = spec.split(":");
            Configuration configuration = new Configuration(Integer.parseInt(parts[0]), parts[1].equals("always"),
                    Double.parseDouble(parts[2]));
            List<CutFigures> figures;
            try {
                figures = PowerLossExperiment.run(configuration, configuration.nodes() == 1 ? ONE_NODE : CLUSTER, cuts);
            } catch (RuntimeException | AssertionError failed) {
                Reliability.report("power loss, " + configuration.name(), "FAILED to run: " + failed);
                failures.add(configuration.name() + ": " + failed);
                continue;
            }
            report(configuration, figures);
            boolean clean = figures.stream().allMatch(cut -> cut.lost() + cut.keysRolledBack() + cut.ownerBehind()
                    + cut.repeated() + cut.overlaps() == 0 && cut.bucketKept());
            if (configuration.syncAlways() && !clean) {
                failures.add(configuration.name() + " lost, repeated or overlapped");
            }
        }
        assertTrue(failures.isEmpty(), String.join("; ", failures));
    }

    private static void report(Configuration configuration, List<CutFigures> figures) {
        String scenario = "power loss, " + configuration.name();
        figures.forEach(cut -> Reliability.report(scenario, cut.line()));
        Reliability.report(scenario, "summary: cuts " + figures.size()
                + ", bucket gone " + figures.stream().filter(cut -> !cut.bucketKept()).count()
                + ", acknowledged " + sum(figures, CutFigures::acknowledged)
                + ", lost " + sum(figures, CutFigures::lost)
                + ", keys rolled back " + sum(figures, CutFigures::keysRolledBack)
                + ", owner behind " + sum(figures, CutFigures::ownerBehind)
                + ", repeated revisions " + sum(figures, CutFigures::repeated)
                + ", overlaps " + sum(figures, CutFigures::overlaps)
                + " (longest " + figures.stream().mapToLong(CutFigures::longestOverlapMillis).max().orElse(0) + " ms)"
                + ", outage " + figures.stream().mapToLong(CutFigures::outageMillis).min().orElse(0) + " to "
                + figures.stream().mapToLong(CutFigures::outageMillis).max().orElse(0) + " ms"
                + "; per cut lost " + Arrays.toString(figures.stream().mapToInt(CutFigures::lost).toArray())
                + ", overlaps " + Arrays.toString(figures.stream().mapToInt(CutFigures::overlaps).toArray()));
    }

    private static long sum(List<CutFigures> figures, java.util.function.ToIntFunction<CutFigures> figure) {
        return figures.stream().mapToInt(figure).sum();
    }
}
