package io.dagnats.leases.benchmarks;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A steady renew load (16 clients, one key each) for SOAK_MINUTES, sampling
 * the dagnats process every 30 s: its heap after a full GC (jcmd) and its CPU
 * time. A heap that grows per request shows as a rising line.
 */
public final class RenewSoak {

    private static final HolderId SOAK = new HolderId("soak");
    private static final LeaseTtl TTL = LeaseTtl.ofSeconds(60);
    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    private RenewSoak() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        long pid = Long.parseLong(System.getenv().getOrDefault("DAGNATS_PID", "0"));
        long minutes = Long.parseLong(System.getenv().getOrDefault("SOAK_MINUTES", "10"));
        if (pid <= 0) {
            throw new IllegalArgumentException("DAGNATS_PID must name the dagnats process");
        }
        AtomicLong renewals = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicBoolean going = new AtomicBoolean(true);
        List<Thread> clients = new ArrayList<>();
        try (Connection connection = Nats.connect(url)) {
            for (int c = 0; c < 16; c++) {
                String key = "soak-" + c;
                Thread thread = new Thread(() -> renewLoop(connection, key, going, renewals, errors));
                clients.add(thread);
                thread.start();
            }
            System.out.printf(Locale.ROOT, "%8s %12s %10s %16s %14s%n", "minute", "renewals", "per s", "heap after GC", "cpu/renewal");
            long start = System.nanoTime();
            long lastRenewals = 0;
            long lastCpu = cpuNanos(pid);
            long firstHeap = -1;
            long heap = 0;
            for (long sample = 1; sample <= minutes * 2; sample++) {
                Thread.sleep(30_000); // the sampling interval of a soak, not a wait for a condition
                long now = renewals.get();
                long cpu = cpuNanos(pid);
                heap = heapAfterGc(pid);
                if (firstHeap < 0) {
                    firstHeap = heap;
                }
                System.out.printf(Locale.ROOT, "%8.1f %12d %10.0f %13d KiB %11.0f us%n",
                        (System.nanoTime() - start) / 60e9, now, (now - lastRenewals) / 30.0, heap / 1024,
                        (cpu - lastCpu) / 1_000.0 / Math.max(1, now - lastRenewals));
                lastRenewals = now;
                lastCpu = cpu;
            }
            going.set(false);
            for (Thread client : clients) {
                client.join(10_000);
            }
            System.out.printf(Locale.ROOT, "%nrenewals %d, errors %d; heap after GC %d KiB at the first sample, %d KiB at the last"
                    + " (%+.2f bytes per renewal)%n", renewals.get(), errors.get(), firstHeap / 1024, heap / 1024,
                    (double) (heap - firstHeap) / Math.max(1, renewals.get()));
        }
    }

    private static void renewLoop(Connection connection, String key, AtomicBoolean going, AtomicLong renewals, AtomicLong errors) {
        LeaseKey leaseKey = new LeaseKey(key);
        Fence fence = null;
        while (going.get()) {
            try {
                if (fence == null) {
                    fence = call(connection, new Request.Acquire(leaseKey, SOAK, TTL), Replies::decodeAcquire)
                            .lease().revision();
                }
                Answers.Renew renew = call(connection, new Request.Renew(leaseKey, SOAK, fence, Optional.empty()),
                        Replies::decodeRenew);
                if (renew instanceof Answers.Renew.Renewed renewed) {
                    fence = renewed.lease().revision();
                    renewals.incrementAndGet();
                } else {
                    errors.incrementAndGet();
                    fence = null;
                }
            } catch (Exception failed) {
                errors.incrementAndGet();
                fence = null;
            }
        }
    }

    private static <T> T call(Connection connection, Request request, Function<byte[], T> decode) throws Exception {
        Message reply = connection.request(request.operation().subject(), Requests.encode(request), Duration.ofSeconds(5));
        return decode.apply(reply == null ? null : reply.getData());
    }

    private static long heapAfterGc(long pid) throws Exception {
        jcmd(pid, "GC.run");
        Matcher used = USED.matcher(jcmd(pid, "GC.heap_info"));
        return used.find() ? Long.parseLong(used.group(1)) * 1024 : -1;
    }

    private static String jcmd(long pid, String command) throws Exception {
        Process process = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return output;
    }

    private static long cpuNanos(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000_000L;
    }
}
