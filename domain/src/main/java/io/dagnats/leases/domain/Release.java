package io.dagnats.leases.domain;

/** The answer to a release. */
public sealed interface Release permits Release.Released, Lost {

    /** The key is free; {@code revision} is the fence of the release write itself. */
    record Released(LeaseKey key, HolderId holder, Fence revision) implements Release {
    }
}
