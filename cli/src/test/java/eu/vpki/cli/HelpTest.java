package eu.vpki.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --help} on every command and subcommand: usage printed, exit code 0, nothing run. */
class HelpTest {
    @Test
    void everyCommand_answersHelp() {
        List<List<String>> paths = new ArrayList<>();
        collect(new CommandLine(new Vpki()), new ArrayList<>(), paths);
        assertThat(paths).extracting(p -> String.join(" ", p)).contains("faults", "cluster start", "demo");
        for (List<String> path : paths) {
            CommandLine cli = new CommandLine(new Vpki());
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
            if (!p.get(p.size() - 1).equals("help")) {
                out.add(p);
                collect(sub, p, out);
            }
        });
    }
}
