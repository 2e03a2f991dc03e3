package dev.assay.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The BOM lists exactly the modules that publish sources and Javadoc jars, at the build's version, and the example
 * project imports that version: a module added to one list and not the other, or a version bumped in one pom, fails
 * here instead of in a user's build.
 */
class PublishedModulesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static Document pom(String path) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(ROOT.resolve(path).toFile());
    }

    /** {@return the text of the first element of this name that is a direct child of {@code parent}} */
    private static String child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element.getTextContent().strip();
            }
        }
        return "";
    }

    private static List<Element> elements(Document document, String name) {
        NodeList nodes = document.getElementsByTagName(name);
        var elements = new ArrayList<Element>();
        for (int i = 0; i < nodes.getLength(); i++) {
            elements.add((Element) nodes.item(i));
        }
        return elements;
    }

    private static String buildVersion() throws Exception {
        return child(pom("pom.xml").getDocumentElement(), "version");
    }

    /** The modules whose own build names both the source and the Javadoc plug-in (the parent configures them). */
    private static Set<String> modulesPublishingSourcesAndJavadoc() throws Exception {
        var published = new TreeSet<String>();
        for (Element module : elements(pom("pom.xml"), "module")) {
            String name = module.getTextContent().strip();
            if (!Files.isRegularFile(ROOT.resolve(name).resolve("pom.xml"))) {
                continue;
            }
            Document modulePom = pom(name + "/pom.xml");
            var plugins = new TreeSet<String>();
            elements(modulePom, "plugin").forEach(plugin -> plugins.add(child(plugin, "artifactId")));
            if (plugins.contains("maven-source-plugin") && plugins.contains("maven-javadoc-plugin")) {
                published.add(child(modulePom.getDocumentElement(), "artifactId"));
            }
        }
        return published;
    }

    @Test
    void the_bom_lists_every_module_that_publishes_sources_and_javadoc_at_the_builds_version() throws Exception {
        var listed = new TreeSet<String>();
        for (Element dependency : elements(pom("assay-bom/pom.xml"), "dependency")) {
            assertThat(child(dependency, "groupId")).isEqualTo("dev.assay");
            assertThat(child(dependency, "version")).isEqualTo(buildVersion());
            listed.add(child(dependency, "artifactId"));
        }

        assertThat(listed).isEqualTo(modulesPublishingSourcesAndJavadoc()).contains("assay-core", "assay-junit");
    }

    @Test
    void the_bom_is_released_with_the_build() throws Exception {
        assertThat(child(pom("assay-bom/pom.xml").getDocumentElement(), "version"))
                .isEqualTo(buildVersion());
    }

    @Test
    void the_example_project_imports_the_builds_version() throws Exception {
        Element properties =
                elements(pom("examples/junit/pom.xml"), "properties").getFirst();

        assertThat(child(properties, "assay.version")).isEqualTo(buildVersion());
    }
}
