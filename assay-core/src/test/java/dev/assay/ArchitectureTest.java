package dev.assay;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of assay-core, as docs/architecture.md draws them, enforced: no package cycle, and no import from a lower
 * layer into a higher one. A new dependency that breaks either fails the build here, with the offending classes named,
 * rather than in a reviewer's head. Each integration module (assay-anthropic, assay-mcp, assay-postgres) runs the same
 * rules with its packages on the class path.
 */
class ArchitectureTest {
    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // An integration module runs these rules too (McpArchitectureTest), with assay-core's test jar.
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.assay");
    }

    @Test
    void no_package_depends_on_itself_through_others() {
        slices().matching("dev.assay.(**)").should().beFreeOfCycles().check(core);
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
                .check(core);
    }

    @Test
    void each_layer_uses_only_the_layers_below_it() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("Foundation")
                .definedBy(
                        "dev.assay",
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
                .check(core);
    }
}
