package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The harness's own check: a spawned process can be stopped by Ctrl-C however the suite was started. */
class TerminalSignalsTest {

    private static final long SIGINT_BIT = 1L << (2 - 1);
    private static final long SIGTERM_BIT = 1L << (15 - 1);

    @Test
    void aProcessStartedFromABackgroundJobStillHasSigintAndSigtermAtTheirDefaults() throws Exception {
        // The worst case: the suite itself started with both ignored, as `nohup ... &` leaves SIGINT.
        long ignored = ignoredSignals(List.of("env", "--ignore-signal=INT,TERM", "env", "--default-signal=INT,TERM",
                "grep", "SigIgn", "/proc/self/status"));
        assertEquals(0, ignored & (SIGINT_BIT | SIGTERM_BIT), "SigIgn " + Long.toHexString(ignored));
        long direct = ignoredSignals(TerminalSignals.atDefaults(List.of("grep", "SigIgn", "/proc/self/status")));
        assertEquals(0, direct & (SIGINT_BIT | SIGTERM_BIT), "SigIgn " + Long.toHexString(direct));
    }

    private static long ignoredSignals(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(process.waitFor(10, TimeUnit.SECONDS), "grep did not finish");
        assertTrue(out.startsWith("SigIgn:"), out);
        return Long.parseUnsignedLong(out.substring("SigIgn:".length()).trim(), 16);
    }
}
