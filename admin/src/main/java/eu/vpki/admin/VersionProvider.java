package eu.vpki.admin;

import eu.vpki.common.BuildVersion;
import picocli.CommandLine;

/** {@code --version} of the project's command-line tools: the version and git commit they were built from ({@link BuildVersion}). */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[]{BuildVersion.current().describe()};
    }
}
