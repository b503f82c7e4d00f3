package eu.vpki.admin;

import picocli.CommandLine;

/** {@code --version} of the project's command-line tools: the version the jar was built as. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[] {"vpki " + (version == null ? "(version unknown: not run from a built jar)" : version)};
    }
}
