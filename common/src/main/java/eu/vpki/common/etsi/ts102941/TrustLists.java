package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.oer.EtsiTime;
import eu.vpki.common.etsi.ts103097.DataSigning;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.SignerKind;
import org.bouncycastle.asn1.ASN1Boolean;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.oer.its.etsi102941.AaEntry;
import org.bouncycastle.oer.its.etsi102941.CrlEntry;
import org.bouncycastle.oer.its.etsi102941.CtlCommand;
import org.bouncycastle.oer.its.etsi102941.DcDelete;
import org.bouncycastle.oer.its.etsi102941.DcEntry;
import org.bouncycastle.oer.its.etsi102941.EaEntry;
import org.bouncycastle.oer.its.etsi102941.SequenceOfCrlEntry;
import org.bouncycastle.oer.its.etsi102941.SequenceOfCtlCommand;
import org.bouncycastle.oer.its.etsi102941.Url;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097Certificate;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SequenceOfHashedId8;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Time32;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.UINT8;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Signs and reads the Root CA's trust lists: the CTL (RcaCertificateTrustListMessage, PSID 624) and
 * the CRL (CertificateRevocationListMessage, PSID 622), both EtsiTs103097Data-Signed by the RCA with
 * signer = digest of the RCA certificate.
 */
public final class TrustLists {
    private TrustLists() {
    }

    // ---- CTL ----

    public static byte[] signCtl(RcaCtl ctl, Instant generationTime, EtsiSigner rcaSigner, EtsiCertificate rca) {
        List<CtlCommand> commands = new ArrayList<>();
        for (CtlEntry e : ctl.additions()) {
            commands.add(CtlCommand.add(toOer(e)));
        }
        for (CtlDelete d : ctl.deletions()) {
            commands.add(CtlCommand.delete(d instanceof CtlDelete.Certificate c
                    ? org.bouncycastle.oer.its.etsi102941.CtlDelete
                            .cert(new org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashedId8(c.id().bytes()))
                    : org.bouncycastle.oer.its.etsi102941.CtlDelete.dc(new DcDelete(((CtlDelete.Dc) d).url()))));
        }
        // as a plain SEQUENCE matching our corrected definition (unconstrained INTEGER version)
        ASN1Sequence tbs = new DERSequence(new ASN1Encodable[]{
                new ASN1Integer(Ts102941Data.VERSION_1),
                new Time32(EtsiTime.toTime32(ctl.nextUpdate())),
                ASN1Boolean.getInstance(ctl.full()),
                new UINT8(ctl.sequence()),
                new SequenceOfCtlCommand(commands)});
        byte[] content = Ts102941Data.wrapRcaCtl(Coer.encode(tbs, Coer.Type.TO_BE_SIGNED_RCA_CTL));
        return DataSigning.sign(content, Psids.CTL, generationTime, SignerKind.DIGEST, rcaSigner, rca);
    }

    private static org.bouncycastle.oer.its.etsi102941.CtlEntry toOer(CtlEntry e) {
        if (e instanceof CtlEntry.Ea ea) {
            return org.bouncycastle.oer.its.etsi102941.CtlEntry.ea(new EaEntry(certificate(ea.certificate()),
                    new Url(ea.aaAccessPoint()), ea.itsAccessPoint() == null ? null : new Url(ea.itsAccessPoint())));
        }
        if (e instanceof CtlEntry.Aa aa) {
            return org.bouncycastle.oer.its.etsi102941.CtlEntry.aa(new AaEntry(certificate(aa.certificate()), new Url(aa.accessPoint())));
        }
        CtlEntry.Dc dc = (CtlEntry.Dc) e;
        return org.bouncycastle.oer.its.etsi102941.CtlEntry.dc(new DcEntry(new Url(dc.url()),
                new SequenceOfHashedId8(dc.certificates().stream()
                        .map(h -> new org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashedId8(h.bytes())).toList())));
    }

    private static EtsiTs103097Certificate certificate(EtsiCertificate c) {
        return EtsiTs103097Certificate.getInstance(Coer.decode(c.encoded(), Coer.Type.CERTIFICATE));
    }

    /**
     * Verifies a CTL against the RCA certificate and returns its content.
     *
     * @throws PkiException when it is not a CTL signed by {@code rca}, or malformed
     */
    public static RcaCtl readCtl(byte[] signed, EtsiCertificate rca) {
        SignedMessage m = SignedMessage.parse(signed).requirePsid(Psids.CTL).requireSignedBy(rca);
        byte[] tbsBytes = Ts102941Data.unwrapRcaCtl(m.requirePayload());
        try {
            ASN1Sequence seq = ASN1Sequence.getInstance(Coer.decode(tbsBytes, Coer.Type.TO_BE_SIGNED_RCA_CTL));
            if (ASN1Integer.getInstance(seq.getObjectAt(0)).intValueExact() != Ts102941Data.VERSION_1) {
                throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "CTL version must be v1");
            }
            Instant nextUpdate = EtsiTime.fromTime32(Time32.getInstance(seq.getObjectAt(1)).getValue().longValueExact());
            boolean full = ASN1Boolean.getInstance(seq.getObjectAt(2)).isTrue();
            int sequence = UINT8.getInstance(seq.getObjectAt(3)).getValue().intValueExact();
            List<CtlEntry> adds = new ArrayList<>();
            List<CtlDelete> deletes = new ArrayList<>();
            for (CtlCommand c : SequenceOfCtlCommand.getInstance(seq.getObjectAt(4)).getCtlCommands()) {
                if (c.getChoice() == CtlCommand.add) {
                    adds.add(fromOer(org.bouncycastle.oer.its.etsi102941.CtlEntry.getInstance(c.getCtlCommand())));
                } else {
                    var d = org.bouncycastle.oer.its.etsi102941.CtlDelete.getInstance(c.getCtlCommand());
                    deletes.add(d.getChoice() == org.bouncycastle.oer.its.etsi102941.CtlDelete.cert
                            ? new CtlDelete.Certificate(HashedId8.of(org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashedId8
                                    .getInstance(d.getCtlDelete()).getHashBytes()))
                            : new CtlDelete.Dc(DcDelete.getInstance(d.getCtlDelete()).getUrl()));
                }
            }
            return new RcaCtl(full, sequence, nextUpdate, adds, deletes);
        } catch (PkiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "CTL content not understood: " + e.getMessage(), e);
        }
    }

    private static CtlEntry fromOer(org.bouncycastle.oer.its.etsi102941.CtlEntry e) {
        return switch (e.getChoice()) {
            case org.bouncycastle.oer.its.etsi102941.CtlEntry.ea -> {
                EaEntry ea = EaEntry.getInstance(e.getCtlEntry());
                yield new CtlEntry.Ea(decode(ea.getEaCertificate()),
                        ea.getItsAccessPoint() == null ? null : ea.getItsAccessPoint().getUrl(), ea.getAaAccessPoint().getUrl());
            }
            case org.bouncycastle.oer.its.etsi102941.CtlEntry.aa -> {
                AaEntry aa = AaEntry.getInstance(e.getCtlEntry());
                yield new CtlEntry.Aa(decode(aa.getAaCertificate()), aa.getAccessPoint().getUrl());
            }
            case org.bouncycastle.oer.its.etsi102941.CtlEntry.dc -> {
                DcEntry dc = DcEntry.getInstance(e.getCtlEntry());
                yield new CtlEntry.Dc(dc.getUrl().getUrl(), dc.getCert().getHashedId8s().stream()
                        .map(h -> HashedId8.of(h.getHashBytes())).toList());
            }
            default -> throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "an RCA CTL may not carry CtlEntry choice " + e.getChoice());
        };
    }

    private static EtsiCertificate decode(EtsiTs103097Certificate c) {
        return EtsiCertificate.decode(Coer.encode(c, Coer.Type.CERTIFICATE));
    }

    // ---- CRL ----

    public static byte[] signCrl(Crl crl, Instant generationTime, EtsiSigner rcaSigner, EtsiCertificate rca) {
        ASN1Sequence tbs = new DERSequence(new ASN1Encodable[]{
                new ASN1Integer(Ts102941Data.VERSION_1),
                new Time32(EtsiTime.toTime32(crl.thisUpdate())),
                new Time32(EtsiTime.toTime32(crl.nextUpdate())),
                new SequenceOfCrlEntry(crl.revoked().stream().map(h -> new CrlEntry(h.bytes())).toList())});
        byte[] content = Ts102941Data.wrapCrl(Coer.encode(tbs, Coer.Type.TO_BE_SIGNED_CRL));
        return DataSigning.sign(content, Psids.CRL, generationTime, SignerKind.DIGEST, rcaSigner, rca);
    }

    public static Crl readCrl(byte[] signed, EtsiCertificate rca) {
        SignedMessage m = SignedMessage.parse(signed).requirePsid(Psids.CRL).requireSignedBy(rca);
        byte[] tbsBytes = Ts102941Data.unwrapCrl(m.requirePayload());
        try {
            ASN1Sequence seq = ASN1Sequence.getInstance(Coer.decode(tbsBytes, Coer.Type.TO_BE_SIGNED_CRL));
            if (ASN1Integer.getInstance(seq.getObjectAt(0)).intValueExact() != Ts102941Data.VERSION_1) {
                throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "CRL version must be v1");
            }
            Instant thisUpdate = EtsiTime.fromTime32(Time32.getInstance(seq.getObjectAt(1)).getValue().longValueExact());
            Instant nextUpdate = EtsiTime.fromTime32(Time32.getInstance(seq.getObjectAt(2)).getValue().longValueExact());
            List<HashedId8> revoked = SequenceOfCrlEntry.getInstance(seq.getObjectAt(3)).getCrlEntries().stream()
                    .map(e -> HashedId8.of(e.getHashBytes())).toList();
            return new Crl(thisUpdate, nextUpdate, revoked);
        } catch (PkiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "CRL content not understood: " + e.getMessage(), e);
        }
    }
}
