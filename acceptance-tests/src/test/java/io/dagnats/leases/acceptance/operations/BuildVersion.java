package io.dagnats.leases.acceptance.operations;

/** The Maven project version the build was made as: what every version line must name. */
final class BuildVersion {

    private BuildVersion() {
    }

    static String expected() {
        String version = System.getProperty("dagnats.expected.version", "");
        if (version.isBlank() || version.startsWith("${")) {
            throw new IllegalStateException("system property dagnats.expected.version must hold the Maven project"
                    + " version; run the tests through Maven (scripts/test.sh)");
        }
        return version;
    }
}
