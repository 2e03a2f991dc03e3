package dev.assay;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers and modules of Assay, as docs/architecture.md draws them, enforced: no package cycle, no import from a
 * lower layer into a higher one, assay-core independent of the modules built on it, each integration module standing on
 * assay-core alone, and the front ends as leaves. A new dependency that breaks any of them fails the build here, with
 * the offending classes named, rather than in a reviewer's head. Every module runs these rules with its own classes on
 * the class path ({@code McpArchitectureTest}, {@code CliArchitectureTest}, ...): the rules are written once, here, and
 * each module's test checks what it can see, the CLI's the whole system but the benchmarks and assay-junit.
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // Every other module runs these rules too (McpArchitectureTest, ...), with assay-core's test jar.
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.assay");
    }

    /** The packages of each module beside assay-core that plugs into it (docs/architecture.md, "Modules"). */
    private static final Map<String, List<String>> INTEGRATIONS = Map.of(
            "assay-anthropic", List.of("dev.assay.model.anthropic.."),
            "assay-mcp", List.of("dev.assay.tools.mcp.."),
            "assay-otel", List.of("dev.assay.run.otel.."),
            "assay-container", List.of("dev.assay.sandbox.container.."),
            "assay-promptfoo", List.of("dev.assay.promptfoo.."),
            "assay-parquet", List.of("dev.assay.cases.parquet.."),
            "assay-postgres", List.of("dev.assay.queue..", "dev.assay.store.postgres.."));

    /**
     * The packages of each front end, and the only other front end that may use it: the {@code assay} launcher (the
     * CLI) embeds the server for {@code assay serve} and {@code assay worker}; the benchmarks drive the launcher as a
     * process, and the server and the JUnit integration stand on the engine and the Java API alone.
     */
    private record FrontEnd(String packages, Optional<String> usedBy) {}

    private static final Map<String, FrontEnd> FRONT_ENDS = Map.of(
            "assay-cli", new FrontEnd("dev.assay.cli..", Optional.empty()),
            "assay-server", new FrontEnd("dev.assay.server..", Optional.of("dev.assay.cli..")),
            "assay-junit", new FrontEnd("dev.assay.junit..", Optional.empty()),
            "bench", new FrontEnd("dev.assay.bench..", Optional.empty()));

    private static String[] packagesOf(Stream<String> packages) {
        return packages.toArray(String[]::new);
    }

    private static String[] integrationPackages() {
        return packagesOf(INTEGRATIONS.values().stream().flatMap(List::stream));
    }

    private static String[] frontEndPackages() {
        return packagesOf(FRONT_ENDS.values().stream().map(FrontEnd::packages));
    }

    /**
     * assay-core knows none of the modules built on it: not the integrations, not the front ends. Maven's module order
     * forbids the import already; this also catches a core package added inside another module's jar.
     */
    @Test
    void assay_core_depends_on_no_other_module() {
        String[] modules =
                packagesOf(Stream.concat(Arrays.stream(integrationPackages()), Arrays.stream(frontEndPackages())));
        noClasses()
                .that()
                .resideInAPackage("dev.assay..")
                .and()
                .resideOutsideOfPackages(modules)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(modules)
                .check(classes);
    }

    /**
     * An integration module (a model provider, MCP, a store, a format) plugs into assay-core alone: not into another
     * integration, and never into a front end. Checked for each one whose classes are on the class path.
     */
    @Test
    void each_integration_module_uses_assay_core_alone() {
        INTEGRATIONS.forEach((module, packages) -> {
            String[] others = packagesOf(Stream.concat(
                    INTEGRATIONS.entrySet().stream()
                            .filter(other -> !other.getKey().equals(module))
                            .flatMap(other -> other.getValue().stream()),
                    Arrays.stream(frontEndPackages())));
            noClasses()
                    .that()
                    .resideInAnyPackage(packages.toArray(String[]::new))
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(others)
                    .as(module + " uses assay-core alone: no other integration module, no front end")
                    .allowEmptyShould(true)
                    .check(classes);
        });
    }

    /** Front ends are leaves: nothing uses one, except the launcher, which embeds the server. */
    @Test
    void no_module_uses_a_front_end() {
        FRONT_ENDS.forEach((module, frontEnd) -> noClasses()
                .that()
                .resideOutsideOfPackages(Stream.concat(Stream.of(frontEnd.packages()), frontEnd.usedBy().stream())
                        .toArray(String[]::new))
                .should()
                .dependOnClassesThat()
                .resideInAPackage(frontEnd.packages())
                .as(module + " is used by "
                        + frontEnd.usedBy().map(user -> user + " alone").orElse("no module"))
                .check(classes));
    }

    /**
     * Ignore files hide build folders ({@code .gitignore} hides every {@code target/}), and with them the sources of a
     * package named after one.
     */
    @Test
    void no_package_is_named_after_a_build_folder() {
        noClasses()
                .should()
                .resideInAnyPackage("..target..", "..build..", "..out..")
                .check(classes);
    }

    /**
     * assay-core's implementation lives in {@code internal} sub-packages ({@code check.internal} beside {@code check}):
     * not API, free to change in any release. Only assay-core itself uses them; another module (an integration, a front
     * end, the benchmarks) uses the public types of the package, its plug-in interfaces and the Java API. A module's
     * own {@code internal} packages are its own business.
     */
    @Test
    void no_other_module_uses_an_internal_package_of_assay_core() {
        String[] modules =
                packagesOf(Stream.concat(Arrays.stream(integrationPackages()), Arrays.stream(frontEndPackages())));
        noClasses()
                .that()
                .resideInAnyPackage(modules)
                .should()
                .dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.assay..internal..")
                        .and(JavaClass.Predicates.resideOutsideOfPackages(modules))
                        .as("reside in an internal package of assay-core"))
                .allowEmptyShould(true)
                .check(classes);
    }

    /**
     * A package and its {@code internal} sub-package are one slice: the public types and their implementation use each
     * other by design, and a cycle through two packages is still one.
     */
    private static final SliceAssignment PACKAGES_WITH_THEIR_INTERNALS = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName().replaceAll("\\.internal(?=\\.|$)", "");
            return name.startsWith("dev.assay.") ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of dev.assay, each with its internal sub-package";
        }
    };

    @Test
    void no_package_depends_on_itself_through_others() {
        slices().assignedFrom(PACKAGES_WITH_THEIR_INTERNALS)
                .should()
                .beFreeOfCycles()
                .check(classes);
    }

    /** The system under test gets its task, never the checks and expected values it will be judged by. */
    @Test
    void systems_under_test_see_cases_only_through_their_input() {
        noClasses()
                .that()
                .resideInAPackage("dev.assay.subject..")
                .and()
                .doNotHaveSimpleName("SubjectInput")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.assay.cases.Case")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.assay.cases.Check")
                .check(classes);
    }

    @Test
    void each_layer_uses_only_the_layers_below_it() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("Foundation")
                .definedBy(
                        "dev.assay",
                        "dev.assay.internal",
                        "dev.assay.transcript..",
                        "dev.assay.sandbox..",
                        "dev.assay.score..",
                        "dev.assay.template..")
                .layer("Cases")
                .definedBy("dev.assay.cases..")
                .layer("Tools")
                .definedBy("dev.assay.tools..")
                .layer("Models")
                .definedBy("dev.assay.model..")
                .layer("Checks")
                .definedBy("dev.assay.check..", "dev.assay.code..")
                .layer("Subjects")
                .definedBy("dev.assay.subject..")
                .layer("Results")
                .definedBy("dev.assay.result..", "dev.assay.cost..")
                .layer("Store")
                .definedBy("dev.assay.store..")
                .layer("Runs")
                .definedBy("dev.assay.run..", "dev.assay.config..")
                .layer("Reports")
                .definedBy("dev.assay.report..")
                .layer("Dialogs")
                .definedBy("dev.assay.dialog..")
                // The work queue is assay-postgres's: empty when assay-core's own classes are checked.
                .optionalLayer("Queue")
                .definedBy("dev.assay.queue..")
                // promptfoo's configs are assay-promptfoo's: empty when assay-core's own classes are checked.
                .optionalLayer("Formats")
                .definedBy("dev.assay.promptfoo..")
                .layer("Api")
                .definedBy("dev.assay.api..")
                .whereLayer("Foundation")
                .mayOnlyAccessLayers("Foundation")
                .whereLayer("Cases")
                .mayOnlyAccessLayers("Foundation")
                .whereLayer("Tools")
                .mayOnlyAccessLayers("Foundation")
                .whereLayer("Models")
                .mayOnlyAccessLayers("Foundation", "Tools")
                .whereLayer("Checks")
                .mayOnlyAccessLayers("Foundation", "Cases", "Tools", "Models")
                .whereLayer("Subjects")
                .mayOnlyAccessLayers("Foundation", "Cases", "Tools", "Models")
                .whereLayer("Results")
                .mayOnlyAccessLayers("Foundation", "Checks")
                .whereLayer("Store")
                .mayOnlyAccessLayers("Foundation", "Results")
                .whereLayer("Runs")
                .mayOnlyAccessLayers("Foundation", "Cases", "Tools", "Models", "Checks", "Subjects", "Results", "Store")
                .whereLayer("Reports")
                .mayOnlyAccessLayers(
                        "Foundation", "Cases", "Tools", "Models", "Checks", "Subjects", "Results", "Store", "Runs")
                .whereLayer("Dialogs")
                .mayOnlyAccessLayers(
                        "Foundation", "Cases", "Tools", "Models", "Checks", "Subjects", "Results", "Store", "Runs")
                .whereLayer("Queue")
                .mayOnlyAccessLayers(
                        "Foundation", "Cases", "Tools", "Models", "Checks", "Subjects", "Results", "Store", "Runs")
                .whereLayer("Formats")
                .mayOnlyAccessLayers(
                        "Foundation",
                        "Cases",
                        "Tools",
                        "Models",
                        "Checks",
                        "Subjects",
                        "Results",
                        "Store",
                        "Runs",
                        "Reports")
                .whereLayer("Api")
                .mayOnlyAccessLayers(
                        "Foundation",
                        "Cases",
                        "Tools",
                        "Models",
                        "Checks",
                        "Subjects",
                        "Results",
                        "Store",
                        "Runs",
                        "Reports")
                .check(classes);
    }
}
