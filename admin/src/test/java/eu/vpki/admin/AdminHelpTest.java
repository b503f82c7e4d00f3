package eu.vpki.admin;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code vpki-admin --help} on every command and subcommand: usage printed, exit code 0, nothing run. */
class AdminHelpTest {
    @Test
    void everyCommand_answersHelp() {
        List<List<String>> paths = new ArrayList<>();
        collect(AdminTool.commandLine(), new ArrayList<>(), paths);
        assertThat(paths).extracting(p -> String.join(" ", p)).contains("status", "authorities list", "authorities certify",
                "authorities revoke", "stations register", "stations revoke", "bootstrap certify", "ceremony");
        for (List<String> path : paths) {
            CommandLine cli = AdminTool.commandLine();
            StringWriter out = new StringWriter();
            cli.setOut(new PrintWriter(out));
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            assertThat(cli.execute(args.toArray(String[]::new))).as(String.join(" ", args)).isZero();
            assertThat(out.toString()).as(String.join(" ", args)).contains("Usage:").contains("--help");
        }
    }

    private static void collect(CommandLine cli, List<String> path, List<List<String>> out) {
        cli.getSubcommands().forEach((name, sub) -> {
            List<String> p = new ArrayList<>(path);
            p.add(name);
            out.add(p);
            collect(sub, p, out);
        });
    }
}
