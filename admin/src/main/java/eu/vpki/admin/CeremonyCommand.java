package eu.vpki.admin;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings;
import eu.vpki.common.etsi.ts102941.CaCertificateRequestMessages;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.CertificateTemplate;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.Validity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code vpki-admin ceremony}: an authority's keys generated inside a PKCS#11 token (issue #36,
 * docs/pki-bootstrap.md). The PIN comes from {@code --pin-file} or {@code VPKI_PKCS11_PIN}, never from the
 * command line.
 */
@Command(name = "ceremony", mixinStandardHelpOptions = true, description = {
        "Key ceremony: generate an authority's keys inside a PKCS#11 token (sensitive, non-extractable), then",
        "  rca: the self-signed root certificate (--out/rca-root.cert), key label rca-root;",
        "  ea, aa: the CaCertificateRequest for the RCA (--out/<authority>-request.oer), key labels <authority>-signing",
        "          and <authority>-encryption (the services' default aliases).",
        "Prints what the witnesses must record and writes it to --out/<authority>-ceremony.txt. An existing label is never replaced."})
final class CeremonyCommand implements Callable<Integer> {
    @Option(names = "--authority", required = true, description = "rca, ea or aa")
    String authority;
    @Option(names = "--name", required = true, description = "the certificate name (hostname form), e.g. rca.example.eu")
    String name;
    @Option(names = "--curve", defaultValue = "nistP256", description = "signing key curve (default ${DEFAULT-VALUE})")
    String curve;
    @Option(names = "--encryption-curve", description = "EA/AA encryption key curve (default: the signing curve, brainpoolP256r1 for brainpoolP384r1)")
    String encryptionCurve;
    @Option(names = "--validity-years", defaultValue = "4", description = "validity asked for (default ${DEFAULT-VALUE})")
    int validityYears;
    @Option(names = "--module", required = true, description = "the PKCS#11 module, e.g. /usr/lib/softhsm/libsofthsm2.so")
    Path module;
    @Option(names = "--slot", description = "the token's slot id")
    Long slot;
    @Option(names = "--slot-list-index", defaultValue = "0", description = "the token's index in the module's slot list, without --slot (default ${DEFAULT-VALUE})")
    int slotListIndex;
    @Option(names = "--pin-file", description = "file whose first line is the user PIN; else the environment variable "
            + Pkcs11Settings.PIN_ENV)
    Path pinFile;
    @Option(names = "--out", required = true, description = "where the certificate or request and the record go")
    Path out;

    @Override
    public Integer call() throws Exception {
        String who = authority.toLowerCase(Locale.ROOT);
        if (!List.of("rca", "ea", "aa").contains(who)) {
            System.err.println("--authority must be rca, ea or aa, not " + authority);
            return 2;
        }
        EtsiCurve signingCurve = EtsiCurve.parse(curve);
        Pkcs11Settings settings = new Pkcs11Settings(module, slot, slotListIndex,
                Pkcs11Settings.pin(pinFile, System.getenv(), Pkcs11Settings.PIN_ENV));
        Files.createDirectories(out);
        Clock clock = Clock.systemUTC();
        List<String> written = new ArrayList<>();
        List<String> record;
        try (KeyCeremony ceremony = KeyCeremony.open(settings, clock, new SecureRandom())) {
            if (who.equals("rca")) {
                ceremony.generate("rca-root", signingCurve, KeyCeremony.Purpose.SIGNING);
                EtsiCertificate root = ceremony.rootCertificate(name, "rca-root", validityYears);
                written.add(write(out.resolve("rca-root.cert"), root.encoded()));
            } else {
                EtsiCurve enc = encryptionCurve != null
                        ? EtsiCurve.parse(encryptionCurve)
                        : signingCurve.encryptionCapable() ? signingCurve : EtsiCurve.BRAINPOOL_P256R1;
                var signing = ceremony.generate(who + "-signing", signingCurve, KeyCeremony.Purpose.SIGNING);
                var encryption = ceremony.generate(who + "-encryption", enc, KeyCeremony.Purpose.ENCRYPTION);
                Validity validity = Validity.of(clock.instant(), Validity.Unit.YEARS, validityYears);
                CertificateTemplate template = who.equals("ea")
                        ? CertificateProfiles.enrolmentAuthority(name, validity, signing.publicKey(), encryption.publicKey(), null)
                        : CertificateProfiles.authorizationAuthority(name, validity, signing.publicKey(), encryption.publicKey(),
                                CertificateProfiles.defaultAuthorizationTicketRanges(), null);
                byte[] request = ceremony.caCertificateRequest(CaCertificateRequestMessages.CaRequest.fromTemplate(template),
                        who + "-signing");
                written.add(write(out.resolve(who + "-request.oer"), request));
            }
            record = new ArrayList<>(ceremony.record());
        }
        record.addAll(written.stream().map(f -> "written: " + f).toList());
        Path recordFile = out.resolve(who + "-ceremony.txt");
        Files.write(recordFile, record, StandardCharsets.UTF_8);
        record.forEach(System.out::println);
        System.out.println("record: " + recordFile + " (sign it with the witnesses; docs/pki-bootstrap.md)");
        return 0;
    }

    private static String write(Path file, byte[] bytes) throws java.io.IOException {
        if (Files.exists(file)) {
            throw new IllegalStateException(file + " exists: a ceremony never overwrites its output");
        }
        Files.write(file, bytes);
        return file.toString();
    }
}
