package eu.vpki.experiments;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The machine an experiment ran on, as its report states it: cores, CPU model, memory, kernel, Java, load. */
public final class Machine {
    private Machine() {
    }

    /** e.g. {@code 2 cores (Intel(R) Xeon(R) ...), 23.4 GiB, Linux 6.1, Java 17.0.12}. */
    public static String describe() {
        return String.format(Locale.ROOT, "%d cores (%s), %s, %s %s, Java %s", cores(), cpuModel(), memory(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("java.version"));
    }

    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** The one-minute load average now, e.g. {@code 3.2}. */
    public static String loadAverage() {
        return String.format(Locale.ROOT, "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static String cpuModel() {
        return procLine(Path.of("/proc/cpuinfo"), "model name").orElse("CPU model unknown");
    }

    private static String memory() {
        return procLine(Path.of("/proc/meminfo"), "MemTotal").map(v -> {
            String kb = v.replaceAll("[^0-9]", "");
            return kb.isEmpty() ? v : String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(kb) / 1024.0 / 1024.0);
        }).orElse("memory unknown");
    }

    private static java.util.Optional<String> procLine(Path file, String key) {
        try {
            List<String> lines = Files.readAllLines(file);
            return lines.stream().filter(l -> l.startsWith(key)).map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst();
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }
}
