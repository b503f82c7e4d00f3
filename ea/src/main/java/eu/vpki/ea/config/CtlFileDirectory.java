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
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The AAs of a full RCA CTL read from a file ({@code vpki.ea.ctl-file}, COER as the DC serves it),
 * verified with the RCA certificate ({@code vpki.rca.certificate-file}); AA entries that do not chain
 * to the RCA are left out. The file is re-read when its modification time changes (checked on
 * lookup), so an operator can drop in a new CTL without a restart. A CTL that no longer verifies
 * keeps the previous one in force and is logged.
 */
final class CtlFileDirectory implements AuthorizationAuthorityDirectory {
    private static final Logger log = LoggerFactory.getLogger(CtlFileDirectory.class);

    private record Loaded(FileTime modified, Map<HashedId8, EtsiCertificate> aas) {
    }

    private final Path file;
    private final EtsiCertificate rca;
    private volatile Loaded loaded;

    CtlFileDirectory(Path file, EtsiCertificate rca) {
        this.file = file;
        this.rca = rca;
        this.loaded = load(modified());
    }

    @Override
    public Optional<EtsiCertificate> find(HashedId8 id) {
        FileTime now = modified();
        Loaded current = loaded;
        if (!now.equals(current.modified())) {
            try {
                current = load(now);
                loaded = current;
            } catch (PkiException | UncheckedIOException e) {
                log.error("CTL file {} changed but cannot be used; keeping the previous CTL: {}", file, e.toString());
            }
        }
        return Optional.ofNullable(current.aas().get(id));
    }

    int size() {
        return loaded.aas().size();
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

    private FileTime modified() {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CTL file " + file, e);
        }
    }
}
