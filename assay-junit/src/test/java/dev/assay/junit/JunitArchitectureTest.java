package dev.assay.junit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** assay-junit stands on the Java API alone, so what a test suite sees is what the API documents (java-api.md). */
class JunitArchitectureTest {
    @Test
    void the_junit_integration_uses_only_the_java_api_and_its_results() {
        classes()
                .that()
                .resideInAPackage("dev.assay.junit..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "dev.assay.junit..", "dev.assay.api..", "dev.assay.result..", "java..", "org.junit..")
                .check(new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.assay.junit"));
    }
}
