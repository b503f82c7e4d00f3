package eu.vpki.station.report;

import eu.vpki.station.load.PhaseResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The HTML report in a real browser: headless Chromium (Debian's package) renders it through
 * {@code docs/tools/screenshot-report.sh}, the script that makes the screenshot in
 * {@code docs/testbed.md}, and the picture must show the EC and AT series in their colours.
 * Skipped where no chromium is installed (CI has none).
 */
class ReportInBrowserTest {

    @Test
    void report_rendersInHeadlessChromium_withTheEnrolmentAndAuthorizationSeriesVisible(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("chromium") || onPath("chromium-browser"), "no chromium on PATH: skipped (apt-get install -y chromium)");
        Path script = Path.of("").toAbsolutePath().getParent().resolve("docs/tools/screenshot-report.sh");
        Path html = dir.resolve("sweep.html");
        Files.writeString(html, ReportWriter.html(ReportWriterTest.sweep()));
        Path png = dir.resolve("sweep.png");

        Process p = new ProcessBuilder("bash", script.toString(), html.toString(), png.toString(), "1600,1900")
                .redirectErrorStream(true).redirectOutput(dir.resolve("screenshot.log").toFile()).start();
        // a bound for a hung browser only; rendering takes a few seconds
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).as("chromium finished").isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("screenshot.log"))).isZero();

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1600);
        assertThat(pixels(image, ReportCharts.colour(PhaseResult.ENROLMENT))).as("EC series pixels").isGreaterThan(200);
        assertThat(pixels(image, ReportCharts.colour(PhaseResult.AUTHORIZATION))).as("AT series pixels").isGreaterThan(200);
    }

    private static long pixels(BufferedImage image, String hex) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        long n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int c = image.getRGB(x, y) & 0xffffff;
                if (Math.abs(((c >> 16) & 0xff) - ((rgb >> 16) & 0xff)) < 12 && Math.abs(((c >> 8) & 0xff) - ((rgb >> 8) & 0xff)) < 12
                        && Math.abs((c & 0xff) - (rgb & 0xff)) < 12) {
                    n++;
                }
            }
        }
        return n;
    }

    private static boolean onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return true;
            }
        }
        return false;
    }
}
