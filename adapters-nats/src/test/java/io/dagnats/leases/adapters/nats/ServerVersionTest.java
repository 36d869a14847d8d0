package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How a server's version string is read, and whether it has per-message TTL. */
class ServerVersionTest {

    static Stream<Arguments> versions() {
        return Stream.of(
                Arguments.of("2.9.10", 2, 9, 10, false),
                Arguments.of("2.10.0", 2, 10, 0, false),
                Arguments.of("2.10.29", 2, 10, 29, false),
                Arguments.of("2.11.0", 2, 11, 0, true),
                Arguments.of("2.11.10", 2, 11, 10, true),
                Arguments.of("2.15.1", 2, 15, 1, true),
                Arguments.of("3.0.0", 3, 0, 0, true),
                Arguments.of("v2.11.3", 2, 11, 3, true),
                Arguments.of("v2.10.4", 2, 10, 4, false),
                Arguments.of(" 2.12.1 ", 2, 12, 1, true),
                // A pre-release is read as the release it leads to.
                Arguments.of("2.11.0-beta.2", 2, 11, 0, true),
                Arguments.of("2.12.0-RC.1", 2, 12, 0, true),
                Arguments.of("v2.10.0-RC.5", 2, 10, 0, false),
                Arguments.of("2.11", 2, 11, 0, true),
                Arguments.of("2", 2, 0, 0, false),
                Arguments.of("99999999999.0.0", Integer.MAX_VALUE, 0, 0, true),
                Arguments.of("garbage", 0, 0, 0, false),
                Arguments.of("", 0, 0, 0, false),
                Arguments.of("..", 0, 0, 0, false),
                Arguments.of("vv2.11.0", 0, 0, 0, false));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("versions")
    void versionIsReadAndComparedWithPerMessageTtl(String text, int major, int minor, int patch, boolean perMessageTtl) {
        ServerVersion version = ServerVersion.parse(text);

        assertEquals(new ServerVersion(major, minor, patch, text), version);
        assertEquals(perMessageTtl, version.isAtLeast(ServerVersion.PER_MESSAGE_TTL));
        assertEquals(text, version.toString());
    }

    @Test
    void missingVersionIsNamedUnknown() {
        ServerVersion version = ServerVersion.parse(null);

        assertEquals(new ServerVersion(0, 0, 0, "unknown"), version);
        assertEquals("unknown", version.toString());
    }
}
