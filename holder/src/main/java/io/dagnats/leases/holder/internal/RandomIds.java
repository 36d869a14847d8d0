package io.dagnats.leases.holder.internal;

import java.security.SecureRandom;
import java.util.HexFormat;

/** Random hex for what must name one process alone: holder id suffixes and incarnations. */
public final class RandomIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private RandomIds() {
    }

    public static String hex(int bytes) {
        byte[] bits = new byte[bytes];
        RANDOM.nextBytes(bits);
        return HexFormat.of().formatHex(bits);
    }
}
