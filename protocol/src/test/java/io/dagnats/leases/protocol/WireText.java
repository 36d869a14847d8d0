package io.dagnats.leases.protocol;

import java.nio.charset.StandardCharsets;

/** Bodies as the tests write them: text in, bytes out, and back. */
final class WireText {

    private WireText() {
    }

    static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }

    static byte[] bytes(String body) {
        return body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    }
}
