package io.dagnats.leases.adapters.otel;

import io.opentelemetry.api.common.AttributeKey;

/** The attributes dagnats puts on its spans and metrics (docs/telemetry.md names each). */
final class LeaseAttributes {

    static final AttributeKey<String> MESSAGING_SYSTEM = MessagingSpan.SYSTEM;
    static final AttributeKey<String> CONSUMER_GROUP = AttributeKey.stringKey("messaging.consumer.group.name");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> LEASE_OPERATION = AttributeKey.stringKey("dagnats.lease.operation");
    static final AttributeKey<String> LEASE_KEY = AttributeKey.stringKey("dagnats.lease.key");
    static final AttributeKey<String> LEASE_HOLDER = AttributeKey.stringKey("dagnats.lease.holder");
    static final AttributeKey<Long> LEASE_REVISION = AttributeKey.longKey("dagnats.lease.revision");
    static final AttributeKey<String> LEASE_OUTCOME = AttributeKey.stringKey("dagnats.lease.outcome");

    private LeaseAttributes() {
    }
}
