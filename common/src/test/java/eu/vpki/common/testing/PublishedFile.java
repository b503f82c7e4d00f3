package eu.vpki.common.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A file the repository publishes (an OpenAPI description under {@code docs/openapi/}, say) that
 * the code generates: a test compares the committed file with what the code produces now and fails,
 * naming the first line that differs, when someone changed one without the other. Run the test with
 * {@code -D}{@value #WRITE}{@code =true} to rewrite the file from the code instead (then review the
 * diff and commit it).
 */
public final class PublishedFile {
    /** System property that makes {@link #check} rewrite the file instead of comparing. */
    public static final String WRITE = "vpki.published.write";

    private PublishedFile() {
    }

    /**
     * Fails unless {@code file} holds exactly {@code generated} (line endings aside); with
     * {@value #WRITE} set, writes {@code generated} to {@code file} instead.
     */
    public static void check(Path file, String generated) {
        try {
            if (Boolean.getBoolean(WRITE)) {
                Files.createDirectories(file.toAbsolutePath().getParent());
                Files.writeString(file, generated);
                return;
            }
            if (!Files.isRegularFile(file)) {
                throw new AssertionError(file + " is not published: run the test with -D" + WRITE + "=true and commit it");
            }
            List<String> published = Files.readString(file).lines().toList();
            List<String> now = generated.lines().toList();
            for (int i = 0; i < Math.max(published.size(), now.size()); i++) {
                String p = i < published.size() ? published.get(i) : "<end of file>";
                String n = i < now.size() ? now.get(i) : "<end of file>";
                if (!p.equals(n)) {
                    throw new AssertionError(file + " differs from what the code generates, line " + (i + 1)
                            + ":\n  published: " + p + "\n  generated: " + n
                            + "\nIf the code is right, run the test with -D" + WRITE + "=true, review the diff and commit the file.");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
