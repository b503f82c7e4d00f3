package eu.vpki.common.etsi.oer;

import org.bouncycastle.oer.OERDefinition;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TrustLists;
import org.bouncycastle.oer.its.template.ieee1609dot2.basetypes.Ieee1609Dot2BaseTypes;

/**
 * OER definitions of ToBeSignedCrl and ToBeSignedRcaCtl (TS 102 941 TrustLists.asn) with
 * {@code version} as the unconstrained INTEGER the ASN.1 declares ({@code Version ::= INTEGER {v1(1)}}),
 * so COER writes it with a length byte ({@code 01 01}). BouncyCastle 1.86's own templates write one
 * byte, which decoders generated from the ASN.1 reject.
 */
final class TrustListDefinitions {
    private TrustListDefinitions() {
    }

    private static OERDefinition.Builder version() {
        return OERDefinition.integer().label("version");
    }

    /** ToBeSignedCrl ::= SEQUENCE { version, thisUpdate Time32, nextUpdate Time32, entries SEQUENCE OF CrlEntry, ... } */
    static final OERDefinition.Builder TO_BE_SIGNED_CRL = OERDefinition.seq(
            version(),
            Ieee1609Dot2BaseTypes.Time32.label("thisUpdate"),
            Ieee1609Dot2BaseTypes.Time32.label("nextUpdate"),
            EtsiTs102941TrustLists.SequenceOfCrlEntry.label("entries"),
            OERDefinition.extension()).typeName("ToBeSignedCrl");

    /** CtlFormat ::= SEQUENCE { version, nextUpdate Time32, isFullCtl BOOLEAN, ctlSequence INTEGER (0..255), ctlCommands SEQUENCE OF CtlCommand, ... } */
    static final OERDefinition.Builder TO_BE_SIGNED_RCA_CTL = OERDefinition.seq(
            version(),
            Ieee1609Dot2BaseTypes.Time32.label("nextUpdate"),
            OERDefinition.bool().label("isFullCtl"),
            OERDefinition.integer(0, 255).label("ctlSequence"),
            EtsiTs102941TrustLists.SequenceOfCtlCommand.label("ctlCommands"),
            OERDefinition.extension()).typeName("ToBeSignedRcaCtl");
}
