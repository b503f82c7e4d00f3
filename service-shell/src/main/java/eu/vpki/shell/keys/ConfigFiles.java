package eu.vpki.shell.keys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading the files a configuration names (certificates, trust anchors): a failure names the key to fix. */
public final class ConfigFiles {
    private ConfigFiles() {
    }

    /** The file's bytes; fails naming {@code key} when the file is not set or cannot be read. */
    public static byte[] read(Path file, String key) {
        if (file == null) {
            throw new IllegalStateException(key + " is required");
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalStateException(key + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
