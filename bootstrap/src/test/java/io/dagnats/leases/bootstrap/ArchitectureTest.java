package io.dagnats.leases.bootstrap;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The hexagon, as a picture: the domain in the middle, use cases and their
 * ports around it, adapters outside, bootstrap wiring it all. The wire
 * protocol sits beside the core: the service's adapter and every client (the
 * holder library) speak it, and it knows nothing of either. The holder
 * library, which users' replicas embed, shares the domain's rules (tenure,
 * fences) and the protocol, and nothing of the service. So does the operator
 * CLI, which bootstrap runs from the same JAR. The fenced JDBC writer knows
 * the domain's fence and JDBC, nothing else. The HTTP adapter (probes, the
 * metrics scrape) is the JDK's HTTP server behind two ports of its own. Maven already
 * keeps each module to its own dependencies; this keeps the core free of
 * framework types too. The holder library's API is its root package alone: its
 * {@code .internal} packages are for the library itself (these rules stand in for a
 * module-info, see the holder's package-info).
 */
@AnalyzeClasses(packages = "io.dagnats.leases", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule layers = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("Domain").definedBy("io.dagnats.leases.domain..")
            .layer("Protocol").definedBy("io.dagnats.leases.protocol..")
            .layer("Application").definedBy("io.dagnats.leases.application..")
            .layer("Adapters").definedBy("io.dagnats.leases.adapters..")
            .layer("Bootstrap").definedBy("io.dagnats.leases.bootstrap..")
            .layer("Holder library").definedBy("io.dagnats.leases.holder..")
            .layer("CLI").definedBy("io.dagnats.leases.cli..")
            .layer("Fencing").definedBy("io.dagnats.leases.fencing..")
            .whereLayer("Bootstrap").mayNotBeAccessedByAnyLayer()
            .whereLayer("Holder library").mayOnlyBeAccessedByLayers("CLI")
            .whereLayer("Fencing").mayNotBeAccessedByAnyLayer()
            .whereLayer("CLI").mayOnlyBeAccessedByLayers("Bootstrap")
            .whereLayer("Adapters").mayOnlyBeAccessedByLayers("Bootstrap")
            .whereLayer("Application").mayOnlyBeAccessedByLayers("Adapters", "Bootstrap")
            .whereLayer("Protocol").mayOnlyBeAccessedByLayers("Adapters", "Bootstrap", "Holder library", "CLI")
            .whereLayer("Domain")
            .mayOnlyBeAccessedByLayers("Protocol", "Application", "Adapters", "Bootstrap", "Holder library", "CLI",
                    "Fencing");

    @ArchTest
    static final ArchRule fencingIsTheDomainAndJdbcOnly = noClasses()
            .that().resideInAPackage("io.dagnats.leases.fencing..")
            .should().dependOnClassesThat().resideOutsideOfPackages("io.dagnats.leases.fencing..",
                    "io.dagnats.leases.domain..", "java..")
            .because("the fenced writer is the example users copy into their own service: "
                    + "the domain's fence and JDBC, nothing of the service nor of NATS");

    @ArchTest
    static final ArchRule protocolDependsOnTheDomainAndJacksonOnly = noClasses()
            .that().resideInAPackage("io.dagnats.leases.protocol..")
            .should().dependOnClassesThat().resideOutsideOfPackages(
                    "io.dagnats.leases.protocol..", "io.dagnats.leases.domain..", "com.fasterxml.jackson.core..",
                    "java..")
            .because("the wire contract is shared by the service and every client, and drags in neither");

    @ArchTest
    static final ArchRule holderNeverDependsOnTheService = noClasses()
            .that().resideInAPackage("io.dagnats.leases.holder..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.dagnats.leases.adapters..", "io.dagnats.leases.application..", "io.dagnats.leases.bootstrap..")
            .because("users' replicas embed the holder library; it speaks the protocol, never dagnats' insides");

    @ArchTest
    static final ArchRule cliSpeaksTheWireOnly = noClasses()
            .that().resideInAPackage("io.dagnats.leases.cli..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.dagnats.leases.adapters..", "io.dagnats.leases.application..", "io.dagnats.leases.bootstrap..",
                    "io.dagnats.leases.holder.internal..", "com.google.inject..", "io.opentelemetry..")
            .because("the operator CLI is a client of the wire like any other: it reads no store and wires nothing;"
                    + " leases hold keeps a lease through the holder library's public API, as a user's service does,"
                    + " so it follows the holder's rules without a second copy of them (ADR-040)");

    @ArchTest
    static final ArchRule coreIsFreeOfFrameworks = noClasses()
            .that().resideInAnyPackage("io.dagnats.leases.domain..", "io.dagnats.leases.application..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.nats..", "com.google.inject..", "io.opentelemetry..", "com.fasterxml.jackson..",
                    "jakarta.inject..", "javax.inject..")
            .because("the core holds the lease rules and their ports, and speaks no library");

    @ArchTest
    static final ArchRule onlyBootstrapWires = noClasses()
            .that().resideOutsideOfPackage("io.dagnats.leases.bootstrap..")
            .should().dependOnClassesThat().resideInAnyPackage("com.google.inject..")
            .because("the Guice modules live in bootstrap and the adapters are plain constructors (ADR-028)");

    @ArchTest
    static final ArchRule domainDependsOnTheJdkOnly = noClasses()
            .that().resideInAPackage("io.dagnats.leases.domain..")
            .should().dependOnClassesThat().resideOutsideOfPackages("io.dagnats.leases.domain..", "java..")
            .because("the domain is pure Java: lease, fence and tenure rules");

    @ArchTest
    static final ArchRule adaptersDoNotTalkToEachOther = noClasses()
            .that().resideInAPackage("io.dagnats.leases.adapters.nats..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.dagnats.leases.adapters.otel..", "io.dagnats.leases.adapters.http..");

    @ArchTest
    static final ArchRule otelAdapterKnowsNoOtherAdapter = noClasses()
            .that().resideInAPackage("io.dagnats.leases.adapters.otel..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.dagnats.leases.adapters.nats..", "io.dagnats.leases.adapters.http..");

    @ArchTest
    static final ArchRule httpAdapterIsTheJdksServerAndItsPorts = noClasses()
            .that().resideInAPackage("io.dagnats.leases.adapters.http..")
            .should().dependOnClassesThat().resideOutsideOfPackages(
                    "io.dagnats.leases.adapters.http..", "com.sun.net.httpserver..", "java..")
            .because("the probes and the scrape learn what they serve through their ports (ReadinessSource,"
                    + " MetricsExposition), which bootstrap implements from the service and the OpenTelemetry adapter");

    /** The holder's internal packages: what users' code must not see, so that they may change freely. */
    private static final String HOLDER_INTERNAL = "io.dagnats.leases.holder.internal..";
    private static final String HOLDER_API = "io.dagnats.leases.holder";

    @ArchTest
    static final ArchRule onlyTheHolderSeesItsInsides = noClasses()
            .that().resideOutsideOfPackage("io.dagnats.leases.holder..")
            .should().dependOnClassesThat().resideInAPackage(HOLDER_INTERNAL)
            .because("users embed the holder through its root package only (issue 28); the internals may change"
                    + " without notice, as io.nats.client.impl or OpenTelemetry's .internal");

    @ArchTest
    static final ArchRule theHolderApiNamesNoInternalType = codeUnits()
            .that().areDeclaredInClassesThat().resideInAPackage(HOLDER_API)
            .and().areDeclaredInClassesThat().arePublic()
            .and().arePublic()
            .should(nameNoHolderInternalType())
            .because("a public method or constructor of the API that named an internal type would make it API");

    @ArchTest
    static final ArchRule theHolderApiFieldsNameNoInternalType = fields()
            .that().areDeclaredInClassesThat().resideInAPackage(HOLDER_API)
            .and().areDeclaredInClassesThat().arePublic()
            .and().arePublic()
            .should(nameNoHolderInternalType())
            .because("a public field of the API that named an internal type would make it API");

    /** Every type a member's signature names, type arguments included, lies outside the holder's internals. */
    private static <T extends JavaMember> ArchCondition<T> nameNoHolderInternalType() {
        return new ArchCondition<>("name no type of " + HOLDER_INTERNAL) {
            @Override
            public void check(T member, ConditionEvents events) {
                List<JavaType> named = new ArrayList<>();
                if (member instanceof JavaCodeUnit unit) {
                    named.add(unit.getReturnType());
                    named.addAll(unit.getParameterTypes());
                } else if (member instanceof JavaField field) {
                    named.add(field.getType());
                }
                for (JavaType type : named) {
                    for (JavaClass raw : type.getAllInvolvedRawTypes()) {
                        if (raw.getPackageName().startsWith("io.dagnats.leases.holder.internal")) {
                            events.add(SimpleConditionEvent.violated(member,
                                    member.getFullName() + " names the internal " + raw.getName()));
                        }
                    }
                }
            }
        };
    }

    @ArchTest
    static final ArchRule classesReferEachOtherOneWay = classes()
            .that().resideInAPackage("io.dagnats.leases..")
            .should(new OneWayReferences())
            .because("two classes that use each other are one class in two files: a narrow interface or a"
                    + " value breaks the loop (across modules Maven already forbids it)");

    /** No two top-level classes (nested ones count as theirs) depend on each other. */
    private static final class OneWayReferences extends ArchCondition<JavaClass> {
        private final Map<String, Set<String>> uses = new HashMap<>();

        OneWayReferences() {
            super("not be used by a class they use");
        }

        @Override
        public void init(Collection<JavaClass> all) {
            for (JavaClass from : all) {
                for (Dependency dependency : from.getDirectDependenciesFromSelf()) {
                    JavaClass to = topLevel(dependency.getTargetClass().getBaseComponentType());
                    if (to.getPackageName().startsWith("io.dagnats.leases") && !to.equals(topLevel(from))) {
                        uses.computeIfAbsent(topLevel(from).getName(), name -> new HashSet<>()).add(to.getName());
                    }
                }
            }
        }

        @Override
        public void check(JavaClass type, ConditionEvents events) {
            if (!type.equals(topLevel(type))) {
                return;
            }
            for (String used : uses.getOrDefault(type.getName(), Set.of())) {
                if (type.getName().compareTo(used) < 0 && uses.getOrDefault(used, Set.of()).contains(type.getName())) {
                    events.add(SimpleConditionEvent.violated(type, type.getName() + " and " + used + " use each other"));
                }
            }
        }

        private static JavaClass topLevel(JavaClass type) {
            JavaClass outer = type;
            while (outer.getEnclosingClass().isPresent()) {
                outer = outer.getEnclosingClass().get();
            }
            return outer;
        }
    }
}
