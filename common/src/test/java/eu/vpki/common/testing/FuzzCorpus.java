package eu.vpki.common.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The corpus of one fuzz test class in the source tree: Jazzer replays every file under
 * {@code src/test/resources/<package>/<Class>Inputs/<target>/} in regression mode (and starts
 * fuzzing from them). Seeds written here are real messages; Jazzer's own findings go to the same
 * directories once they are kept as regression inputs.
 */
public final class FuzzCorpus {
    private final Path directory;

    private FuzzCorpus(Path directory) {
        this.directory = directory;
    }

    /** The corpus of {@code fuzzTestClass}, relative to the module directory (the working directory of Maven's tests). */
    public static FuzzCorpus of(Class<?> fuzzTestClass) {
        return new FuzzCorpus(Path.of("src/test/resources", fuzzTestClass.getPackageName().replace('.', '/'),
                fuzzTestClass.getSimpleName() + "Inputs"));
    }

    /** Writes (or replaces) the seed {@code seed-<name>} of {@code target}. */
    public void write(String target, String name, byte[] input) throws IOException {
        Path dir = directory.resolve(target);
        Files.createDirectories(dir);
        Files.write(dir.resolve("seed-" + name), input);
    }
}
