package eu.vpki.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The images an operator runs carry no test rig: only the services and the admin tool build an image
 * ({@code vpki.image.skip=false}), and {@code compose.yaml} runs nothing else. The layering of the
 * admin tool itself (it never reaches the station, the launcher or the harness) is
 * {@link ModuleLayersTest}'s.
 */
class OperatorImagesTest {
    static final Set<String> OPERATOR_IMAGES = Set.of("rca", "dc", "ea", "operator", "aa", "admin");
    private static final Path PROJECT = Path.of("").toAbsolutePath().getParent();

    @Test
    void onlyServicesAndTheAdminTool_buildAnImage() throws IOException {
        assertThat(modulesWithAnImage(PROJECT)).isEqualTo(new TreeSet<>(OPERATOR_IMAGES));
    }

    @Test
    void compose_runsOnlyOperatorImages() throws IOException {
        assertThat(composeImages(Files.readString(PROJECT.resolve("compose.yaml")))).isNotEmpty().isSubsetOf(OPERATOR_IMAGES);
    }

    @Test
    void composeCheck_findsATestRigImage() {
        List<String> images = composeImages("  x:\n    image: vpki/cli:1\n  y:\n    image: vpki/admin:1\n");
        assertThat(images).containsExactly("cli", "admin");
        assertThat(OPERATOR_IMAGES.containsAll(images)).isFalse();
    }

    static Set<String> modulesWithAnImage(Path project) throws IOException {
        Set<String> modules = new TreeSet<>();
        try (Stream<Path> poms = Files.list(project)) {
            for (Path dir : poms.filter(d -> Files.isRegularFile(d.resolve("pom.xml"))).toList()) {
                if (Files.readString(dir.resolve("pom.xml")).contains("<vpki.image.skip>false</vpki.image.skip>")) {
                    modules.add(dir.getFileName().toString());
                }
            }
        }
        return modules;
    }

    static List<String> composeImages(String compose) {
        Matcher m = Pattern.compile("(?m)^\\s*image:\\s*vpki/([a-z-]+):").matcher(compose);
        List<String> images = new java.util.ArrayList<>();
        while (m.find()) {
            images.add(m.group(1));
        }
        return images;
    }
}
