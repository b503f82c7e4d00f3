package eu.vpki.rca.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.storage.AtomicFiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;

/**
 * The Root CA's state in one file ({@code rca-state.properties} in the data directory), rewritten
 * whole and atomically ({@link AtomicFiles}) on every change, before the change is answered. A
 * process killed at any point leaves the previous or the new state, never a mix. Certificates and
 * signed lists are stored as base64 COER; the file is readable for an operator but not to be edited.
 */
public final class RcaStateStore {
    static final String FILE_NAME = "rca-state.properties";
    private static final int FORMAT = 1;

    private final Path file;

    public RcaStateStore(Path dataDir) {
        this.file = dataDir.resolve(FILE_NAME);
    }

    public Path file() {
        return file;
    }

    public RcaState load() {
        if (!Files.exists(file)) {
            return RcaState.EMPTY;
        }
        Properties p = new Properties();
        try {
            p.load(new ByteArrayInputStream(Files.readAllBytes(file)));
        } catch (IOException e) {
            throw new PkiException(ErrorCode.INTERNAL_ERROR, "cannot read " + file + ": " + e.getMessage(), e);
        }
        try {
            if (Integer.parseInt(p.getProperty("format", "0")) != FORMAT) {
                throw new PkiException(ErrorCode.INTERNAL_ERROR, file + " has an unknown format " + p.getProperty("format"));
            }
            List<Authority> authorities = new ArrayList<>();
            int n = Integer.parseInt(p.getProperty("authority.count", "0"));
            for (int i = 0; i < n; i++) {
                String k = "authority." + i + ".";
                authorities.add(new Authority(AuthorityType.valueOf(p.getProperty(k + "type")),
                        EtsiCertificate.decode(bytes(p, k + "certificate")),
                        p.getProperty(k + "itsAccessPoint"), p.getProperty(k + "aaAccessPoint"), p.getProperty(k + "accessPoint"),
                        instant(p, k + "issuedAt"), instant(p, k + "revokedAt")));
            }
            SignedCtl ctl = null;
            if (p.getProperty("ctl.sequence") != null) {
                ctl = new SignedCtl(Integer.parseInt(p.getProperty("ctl.sequence")), instant(p, "ctl.issuedAt"),
                        instant(p, "ctl.nextUpdate"), bytes(p, "ctl.full"), bytes(p, "ctl.delta"),
                        list(p, "ctl.listedCertificate"), list(p, "ctl.listedDc"));
            }
            SignedCrl crl = null;
            if (p.getProperty("crl.thisUpdate") != null) {
                crl = new SignedCrl(instant(p, "crl.thisUpdate"), instant(p, "crl.nextUpdate"), bytes(p, "crl.encoded"));
            }
            return new RcaState(authorities, ctl, crl);
        } catch (PkiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.INTERNAL_ERROR, file + " is damaged: " + e.getMessage(), e);
        }
    }

    public void save(RcaState state) {
        Properties p = new Properties();
        p.setProperty("format", Integer.toString(FORMAT));
        p.setProperty("authority.count", Integer.toString(state.authorities().size()));
        for (int i = 0; i < state.authorities().size(); i++) {
            Authority a = state.authorities().get(i);
            String k = "authority." + i + ".";
            p.setProperty(k + "type", a.type().name());
            p.setProperty(k + "hashedId8", a.hashedId8().toHex());
            p.setProperty(k + "certificate", Base64.getEncoder().encodeToString(a.certificate().encoded()));
            set(p, k + "itsAccessPoint", a.itsAccessPoint());
            set(p, k + "aaAccessPoint", a.aaAccessPoint());
            set(p, k + "accessPoint", a.accessPoint());
            set(p, k + "issuedAt", a.issuedAt());
            set(p, k + "revokedAt", a.revokedAt());
        }
        SignedCtl ctl = state.ctl();
        if (ctl != null) {
            p.setProperty("ctl.sequence", Integer.toString(ctl.sequence()));
            set(p, "ctl.issuedAt", ctl.issuedAt());
            set(p, "ctl.nextUpdate", ctl.nextUpdate());
            p.setProperty("ctl.full", Base64.getEncoder().encodeToString(ctl.full()));
            p.setProperty("ctl.delta", Base64.getEncoder().encodeToString(ctl.delta()));
            setList(p, "ctl.listedCertificate", ctl.listedCertificates());
            setList(p, "ctl.listedDc", ctl.listedDcs());
        }
        SignedCrl crl = state.crl();
        if (crl != null) {
            set(p, "crl.thisUpdate", crl.thisUpdate());
            set(p, "crl.nextUpdate", crl.nextUpdate());
            p.setProperty("crl.encoded", Base64.getEncoder().encodeToString(crl.encoded()));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            p.store(out, "vpki Root CA state: written by the RCA, do not edit");
        } catch (IOException e) {
            throw new PkiException(ErrorCode.INTERNAL_ERROR, "cannot serialize the RCA state", e);
        }
        AtomicFiles.write(file, out.toString(StandardCharsets.ISO_8859_1).getBytes(StandardCharsets.ISO_8859_1));
    }

    private static void set(Properties p, String key, Object value) {
        if (value != null) {
            p.setProperty(key, value.toString());
        }
    }

    private static void setList(Properties p, String key, List<String> values) {
        p.setProperty(key + ".count", Integer.toString(values.size()));
        for (int i = 0; i < values.size(); i++) {
            p.setProperty(key + "." + i, values.get(i));
        }
    }

    private static List<String> list(Properties p, String key) {
        int n = Integer.parseInt(p.getProperty(key + ".count", "0"));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(p.getProperty(key + "." + i));
        }
        return out;
    }

    private static Instant instant(Properties p, String key) {
        String v = p.getProperty(key);
        return v == null ? null : Instant.parse(v);
    }

    private static byte[] bytes(Properties p, String key) {
        return Base64.getDecoder().decode(p.getProperty(key));
    }
}
