package io.dagnats.leases.domain;

/**
 * Who holds a lease: one process. Two processes that share a holder id are the
 * same holder to this API. Same syntax as {@link LeaseKey}.
 */
public record HolderId(String value) {
    public HolderId {
        Token.require("holder", value);
    }

    @Override
    public String toString() {
        return value;
    }
}
