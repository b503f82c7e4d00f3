package eu.vpki.benchmarks;

import eu.vpki.common.etsi.crypto.CryptoBackend;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Our ECDSA and ECIES on the brainpool curves (and nistP256 for reference) beside OpenSSL's, in one
 * run on one machine: {@code openssl speed} for the same curves, then the JMH benchmarks
 * ({@link EcdsaBenchmark}, {@link EncryptionBenchmark}; one thread, one fork), then
 * {@code openssl speed} again, and a table of ours against OpenSSL with the ratio and the target
 * of issue #20 (sign and verify, also with a key seen for the first time, at least OpenSSL's rate;
 * ECIES decryption at least 80 % of OpenSSL's bare ECDH). Both OpenSSL runs are shown; the ratio
 * uses the faster one. OpenSSL's figures are per CPU-second of one process ({@code openssl speed}
 * divides by user time); JMH's are per wall-clock second of one thread: run it on a quiet machine.
 *
 * <p>Run with {@code benchmarks/run-crypto-vs-openssl.sh [--quick] [--out file.md]}; without
 * {@code openssl} on the PATH it prints our figures only.
 */
public final class OpenSslComparison {
    /** One row: our JMH benchmark (method, curve), the OpenSSL figure it is held against and the factor required. */
    record Row(String operation, String curve, String benchmark, String opensslKey, double target) {
    }

    static final List<Row> ROWS = List.of(
            new Row("ECDSA sign", "BRAINPOOL_P256R1", "EcdsaBenchmark.oursSign", "sign brainpoolP256r1", 1.0),
            new Row("ECDSA verify, key kept", "BRAINPOOL_P256R1", "EcdsaBenchmark.oursVerify", "verify brainpoolP256r1", 1.0),
            new Row("ECDSA verify, key seen first", "BRAINPOOL_P256R1", "EcdsaBenchmark.oursVerifyFirstSeenKey", "verify brainpoolP256r1",
                    1.0),
            new Row("ECIES decrypt (key only) vs bare ECDH", "BRAINPOOL_P256R1", "EncryptionBenchmark.oursDecryptKey",
                    "ecdh brainpoolP256r1", 0.8),
            new Row("ECIES + CCM 500 B + COER decrypt vs bare ECDH", "BRAINPOOL_P256R1", "EncryptionBenchmark.oursDecrypt",
                    "ecdh brainpoolP256r1", 0.8),
            new Row("ECDSA sign", "BRAINPOOL_P384R1", "EcdsaBenchmark.oursSign", "sign brainpoolP384r1", 1.0),
            new Row("ECDSA verify, key kept", "BRAINPOOL_P384R1", "EcdsaBenchmark.oursVerify", "verify brainpoolP384r1", 1.0),
            new Row("ECDSA verify, key seen first", "BRAINPOOL_P384R1", "EcdsaBenchmark.oursVerifyFirstSeenKey", "verify brainpoolP384r1",
                    1.0),
            new Row("ECDSA sign", "NIST_P256", "EcdsaBenchmark.oursSign", "sign nistp256", 0),
            new Row("ECDSA verify, key kept", "NIST_P256", "EcdsaBenchmark.oursVerify", "verify nistp256", 0),
            new Row("ECDSA verify, key seen first", "NIST_P256", "EcdsaBenchmark.oursVerifyFirstSeenKey", "verify nistp256", 0),
            new Row("ECIES decrypt (key only) vs bare ECDH", "NIST_P256", "EncryptionBenchmark.oursDecryptKey", "ecdh nistp256", 0),
            new Row("ECIES + CCM 500 B + COER decrypt vs bare ECDH", "NIST_P256", "EncryptionBenchmark.oursDecrypt", "ecdh nistp256", 0));

    private static final List<String> OPENSSL_ALGORITHMS = List.of("ecdsabrp256r1", "ecdsabrp384r1", "ecdhbrp256r1", "ecdhbrp384r1",
            "ecdsap256", "ecdhp256");

    private OpenSslComparison() {
    }

    public static void main(String[] args) throws Exception {
        boolean quick = List.of(args).contains("--quick");
        int outAt = List.of(args).indexOf("--out");
        Path out = outAt >= 0 && outAt + 1 < args.length ? Path.of(args[outAt + 1]) : null;
        StringBuilder report = new StringBuilder();
        log(report, "# Our ECDSA/ECIES against OpenSSL, one run (" + Instant.now() + ")");
        log(report, "");
        log(report, "- JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + "; crypto: "
                + CryptoBackend.description());
        log(report, "- load average at the start: " + loadAverage() + "; cores " + Runtime.getRuntime().availableProcessors());

        int seconds = quick ? 1 : 3;
        Map<String, Double> before = opensslSpeed(seconds, report);
        Map<String, double[]> ours = jmh(quick);
        Map<String, Double> after = opensslSpeed(seconds, report);
        log(report, "- load average at the end: " + loadAverage());
        log(report, "");
        log(report, "| operation | curve | ours (ops/s, JMH ± 99.9 %) | OpenSSL before / after (ops/s) | ratio | target | met |");
        log(report, "|---|---|---|---|---|---|---|");
        for (Row row : ROWS) {
            double[] mine = ours.get(row.benchmark() + "@" + row.curve());
            Double a = before.get(row.opensslKey());
            Double b = after.get(row.opensslKey());
            String oursText = mine == null ? "not run" : String.format(Locale.ROOT, "%,.0f ± %,.0f", mine[0], mine[1]);
            String opensslText = a == null || b == null ? "no openssl" : String.format(Locale.ROOT, "%,.0f / %,.0f", a, b);
            String ratio = "";
            String met = "";
            if (mine != null && a != null && b != null) {
                double ratioValue = mine[0] / Math.max(a, b);
                ratio = String.format(Locale.ROOT, "%.2f", ratioValue);
                met = row.target() == 0 ? "(reference)" : ratioValue >= row.target() ? "yes" : "NO";
            }
            log(report,
                    String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |", row.operation(), row.curve(), oursText, opensslText,
                            ratio, row.target() == 0 ? "" : "≥ " + row.target(), met));
        }
        if (out != null) {
            Files.writeString(out, report);
        }
    }

    /** ops/s of each selected benchmark and curve, with its 99.9 % error. */
    private static Map<String, double[]> jmh(boolean quick) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(
                        "(EcdsaBenchmark\\.(oursSign|oursVerify|oursVerifyFirstSeenKey)|EncryptionBenchmark\\.(oursDecrypt|oursDecryptKey))$")
                .forks(1)
                .threads(1)
                .mode(org.openjdk.jmh.annotations.Mode.Throughput)
                .timeUnit(TimeUnit.SECONDS)
                .warmupIterations(quick ? 2 : 4)
                .warmupTime(TimeValue.seconds(quick ? 1 : 2))
                .measurementIterations(quick ? 3 : 5)
                .measurementTime(TimeValue.seconds(quick ? 1 : 2));
        Collection<RunResult> results = new Runner(options.build()).run();
        Map<String, double[]> out = new LinkedHashMap<>();
        for (RunResult r : results) {
            String label = r.getParams().getBenchmark();
            String name = label.substring(label.lastIndexOf('.', label.lastIndexOf('.') - 1) + 1);
            String curve = r.getParams().getParam("curve");
            out.put(name + "@" + curve, new double[]{r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()});
        }
        return out;
    }

    /** {@code openssl speed} for our curves: "sign brainpoolP256r1" → ops/s, etc.; empty without openssl. */
    static Map<String, Double> opensslSpeed(int seconds, StringBuilder report) throws InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl", "speed", "-seconds", Integer.toString(seconds)));
        command.addAll(OPENSSL_ALGORITHMS);
        String output;
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (InputStream in = p.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            p.waitFor();
        } catch (IOException e) {
            log(report, "- openssl: not available (" + e.getMessage() + ")");
            return Map.of();
        }
        Map<String, Double> speeds = parseSpeed(output);
        String version = output.lines().filter(l -> l.startsWith("version:") || l.startsWith("OpenSSL")).findFirst().orElse("?");
        log(report, "- `" + String.join(" ", command) + "` (" + version.trim() + "): " + speeds);
        return speeds;
    }

    /** The ECDSA (sign/s, verify/s) and ECDH (op/s) lines of {@code openssl speed}'s summary. */
    static Map<String, Double> parseSpeed(String output) {
        Map<String, Double> speeds = new LinkedHashMap<>();
        Pattern ecdsa = Pattern.compile("^\\s*\\d+ bits ecdsa \\((\\w+)\\)\\s+\\S+s\\s+\\S+s\\s+([\\d.]+)\\s+([\\d.]+)\\s*$",
                Pattern.MULTILINE);
        Pattern ecdh = Pattern.compile("^\\s*\\d+ bits ecdh \\((\\w+)\\)\\s+\\S+s\\s+([\\d.]+)\\s*$", Pattern.MULTILINE);
        Matcher m = ecdsa.matcher(output);
        while (m.find()) {
            String curve = m.group(1).toLowerCase(Locale.ROOT).replace("brainpoolp", "brainpoolP");
            speeds.put("sign " + curve, Double.parseDouble(m.group(2)));
            speeds.put("verify " + curve, Double.parseDouble(m.group(3)));
        }
        m = ecdh.matcher(output);
        while (m.find()) {
            speeds.put("ecdh " + m.group(1).toLowerCase(Locale.ROOT).replace("brainpoolp", "brainpoolP"), Double.parseDouble(m.group(2)));
        }
        return speeds;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    private static void log(StringBuilder report, String line) {
        System.out.println(line);
        report.append(line).append('\n');
    }
}
