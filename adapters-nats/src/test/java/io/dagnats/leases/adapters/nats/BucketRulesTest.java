package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.Mirror;
import io.nats.client.api.PersistMode;
import io.nats.client.api.Republish;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.Source;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.SubjectTransform;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each setting lease safety rests on, broken once: the answer names it. */
class BucketRulesTest {

    /** What the unsafe cases run with: the safe baseline has as many replicas. */
    private static final int CONFIGURED_REPLICAS = 3;

    private static StreamConfiguration.Builder safe() {
        return StreamConfiguration.builder()
                .name(Subjects.STREAM)
                .subjects(Subjects.KEY_WILDCARD)
                .maxMessagesPerSubject(1)
                .replicas(CONFIGURED_REPLICAS)
                .discardPolicy(DiscardPolicy.New)
                .storageType(StorageType.File)
                .allowMessageTtl()
                .subjectDeleteMarkerTtl(Duration.ofSeconds(60))
                .republish(Republish.builder().source(Subjects.KEY_WILDCARD).destination(Subjects.CHANGED_WILDCARD).build());
    }

    @Test
    void theSettingsDagnatsCreatesAreSafe() {
        assertEquals(Optional.empty(), BucketRules.problem(safe().build(), 1));
    }

    @Test
    void aMaxAgeOfZeroOrAtLeastTheLongestLeaseIsSafe() {
        assertEquals(Optional.empty(), BucketRules.problem(safe().maxAge(Duration.ZERO).build(), 1));
        assertEquals(Optional.empty(), BucketRules.problem(safe().maxAge(Duration.ofMinutes(10)).build(), 1));
    }

    @Test
    void limitsWithDiscardNewAreSafe() {
        assertEquals(Optional.empty(), BucketRules.problem(safe().maxMessages(1000).maxBytes(1 << 20).build(), 1));
    }

    @Test
    void moreReplicasThanConfiguredAreSafeFewerAreNot() {
        assertEquals(Optional.empty(), BucketRules.problem(safe().replicas(3).build(), 1));
        assertEquals(Optional.empty(), BucketRules.problem(safe().replicas(3).build(), 3));
        Optional<String> problem = BucketRules.problem(safe().replicas(1).build(), 3);
        assertTrue(problem.isPresent() && problem.get().contains("replicas 1, fewer than the 3"), problem.toString());
    }

    static Stream<Arguments> unsafe() {
        return Stream.of(
                Arguments.of("allow_msg_ttl", (UnaryOperator<StreamConfiguration.Builder>) b -> b.allowMessageTtl(false)),
                Arguments.of("history 5", (UnaryOperator<StreamConfiguration.Builder>) b -> b.maxMessagesPerSubject(5)),
                Arguments.of("history -1", (UnaryOperator<StreamConfiguration.Builder>) b -> b.maxMessagesPerSubject(-1)),
                Arguments.of("max_age", (UnaryOperator<StreamConfiguration.Builder>) b -> b.maxAge(Duration.ofSeconds(2))),
                Arguments.of("max_age", (UnaryOperator<StreamConfiguration.Builder>) b -> b.maxAge(Duration.ofSeconds(599))),
                Arguments.of("subject_delete_marker_ttl", (UnaryOperator<StreamConfiguration.Builder>) b -> b.subjectDeleteMarkerTtl(0)),
                Arguments.of("mirror", (UnaryOperator<StreamConfiguration.Builder>) b -> b.mirror(Mirror.builder().name("M").build())),
                Arguments.of("sources", (UnaryOperator<StreamConfiguration.Builder>) b -> b.sources(Source.builder().name("S").build())),
                Arguments.of("replicas", (UnaryOperator<StreamConfiguration.Builder>) b -> b.replicas(1)),
                Arguments.of("storage", (UnaryOperator<StreamConfiguration.Builder>) b -> b.storageType(StorageType.Memory)),
                Arguments.of("persist_mode", (UnaryOperator<StreamConfiguration.Builder>) b -> b.persistMode(PersistMode.Async)),
                Arguments.of("max_msgs", (UnaryOperator<StreamConfiguration.Builder>) b -> b.maxMessages(10).discardPolicy(DiscardPolicy.Old)),
                Arguments.of("max_bytes", (UnaryOperator<StreamConfiguration.Builder>) b -> b.maxBytes(1000).discardPolicy(DiscardPolicy.Old)),
                Arguments.of("discard_new_per_subject", (UnaryOperator<StreamConfiguration.Builder>) b -> b.discardNewPerSubject(true)),
                Arguments.of("sealed", (UnaryOperator<StreamConfiguration.Builder>) StreamConfiguration.Builder::seal),
                Arguments.of("no_ack", (UnaryOperator<StreamConfiguration.Builder>) b -> b.noAck(true)),
                Arguments.of("retention", (UnaryOperator<StreamConfiguration.Builder>) b -> b.retentionPolicy(RetentionPolicy.Interest)),
                Arguments.of("subjects", (UnaryOperator<StreamConfiguration.Builder>) b -> b.subjects("$KV.leases.a.>")),
                Arguments.of("subject_transform", (UnaryOperator<StreamConfiguration.Builder>) b -> b.subjectTransform(
                        SubjectTransform.builder().source("$KV.leases.>").destination("x.>").build())),
                Arguments.of("republish", (UnaryOperator<StreamConfiguration.Builder>) b -> b.republish(null)),
                Arguments.of("republish", (UnaryOperator<StreamConfiguration.Builder>) b -> b.republish(
                        Republish.builder().source(Subjects.KEY_WILDCARD).destination("elsewhere.>").build())),
                Arguments.of("headers_only", (UnaryOperator<StreamConfiguration.Builder>) b -> b.republish(
                        Republish.builder().source(Subjects.KEY_WILDCARD).destination(Subjects.CHANGED_WILDCARD)
                                .headersOnly(true).build())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsafe")
    void eachUnsafeSettingIsNamed(String named, UnaryOperator<StreamConfiguration.Builder> change) {
        Optional<String> problem = BucketRules.problem(change.apply(safe()).build(), CONFIGURED_REPLICAS);

        assertTrue(problem.isPresent(), named);
        assertTrue(problem.get().contains(named), problem.get());
    }
}
