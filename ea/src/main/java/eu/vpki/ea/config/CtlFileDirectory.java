package eu.vpki.ea.config;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.ea.core.AuthorizationAuthorityDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The AAs of a full RCA CTL read from a file ({@code vpki.ea.ctl-file}, COER as the DC serves it),
 * verified with the RCA certificate ({@code vpki.rca.certificate-file}); AA entries that do not chain
 * to the RCA are left out. An operator can drop in a new CTL without a restart: a lookup looks at
 * the file's modification time at most once per {@link #CHECK_INTERVAL} and re-reads the file when
 * it changed. A CTL that no longer verifies, or a file that cannot be read any more, keeps the
 * previous CTL in force and is logged. The first read happens at construction and must succeed.
 */
final class CtlFileDirectory implements AuthorizationAuthorityDirectory {
    /** How often a lookup may look at the file (one {@code stat}); lookups in between use what was loaded. */
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(CtlFileDirectory.class);

    private record Loaded(FileTime modified, Map<HashedId8, EtsiCertificate> aas) {
    }

    private final Path file;
    private final EtsiCertificate rca;
    private final Clock clock;
    private volatile Loaded loaded;
    private volatile Instant nextCheck;

    /** @throws UncheckedIOException or PkiException when the file cannot be read or its CTL does not verify */
    CtlFileDirectory(Path file, EtsiCertificate rca, Clock clock) {
        this.file = file;
        this.rca = rca;
        this.clock = clock;
        try {
            this.loaded = load(Files.getLastModifiedTime(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CTL file " + file, e);
        }
        this.nextCheck = clock.instant().plus(CHECK_INTERVAL);
    }

    @Override
    public Optional<EtsiCertificate> find(HashedId8 id) {
        Instant now = clock.instant();
        if (!now.isBefore(nextCheck)) {
            nextCheck = now.plus(CHECK_INTERVAL);
            reloadIfChanged();
        }
        return Optional.ofNullable(loaded.aas().get(id));
    }

    int size() {
        return loaded.aas().size();
    }

    /** Concurrent lookups at the end of an interval may both get here; only one reads the file. */
    private synchronized void reloadIfChanged() {
        Loaded current = loaded;
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            if (!modified.equals(current.modified())) {
                loaded = load(modified);
            }
        } catch (IOException | UncheckedIOException | PkiException e) {
            log.error("CTL file {} changed but cannot be used; keeping the previous CTL: {}", file, e.toString());
        }
    }

    private Loaded load(FileTime modified) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CTL file " + file, e);
        }
        RcaCtl ctl = TrustLists.readCtl(bytes, rca);
        Map<HashedId8, EtsiCertificate> aas = new HashMap<>();
        for (CtlEntry.Aa aa : ctl.authorizationAuthorities()) {
            try {
                CertificateChecks.checkIssuedBy(aa.certificate(), rca, null);
                aas.put(aa.certificate().hashedId8(), aa.certificate());
            } catch (PkiException e) {
                log.warn("CTL entry {} does not chain to the RCA, ignored: {}", aa.certificate().hashedId8(), e.getMessage());
            }
        }
        log.info("CTL sequence {} from {}: {} AAs", ctl.sequence(), file, aas.size());
        return new Loaded(modified, Map.copyOf(aas));
    }
}
