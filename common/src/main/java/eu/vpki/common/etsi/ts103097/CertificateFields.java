package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.oer.its.ieee1609dot2.EndEntityType;
import org.bouncycastle.oer.its.ieee1609dot2.SequenceOfPsidGroupPermissions;
import org.bouncycastle.oer.its.ieee1609dot2.SubjectPermissions;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.BitmapSsp;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.BitmapSspRange;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.CircularRegion;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.CountryOnly;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Duration;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.IdentifiedRegion;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Latitude;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Longitude;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.PolygonalRegion;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Psid;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.RectangularRegion;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SequenceOfIdentifiedRegion;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SequenceOfOctetString;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SequenceOfPsidSsp;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SequenceOfPsidSspRange;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SequenceOfRectangularRegion;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.ServiceSpecificPermissions;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SspRange;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Time32;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.TwoDLocation;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.UINT16;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.ValidityPeriod;

import java.util.ArrayList;
import java.util.List;

/**
 * Maps certificate fields between our value types and BouncyCastle's OER classes, both ways.
 * Writes canonical COER: DEFAULT values (minChainLength 1, chainLengthRange 0, eeType app) are
 * left out, and BC's ITSValidityPeriod (wrong epoch) is never used. Internal to the ETSI core (its
 * signatures use BouncyCastle types, which services never import).
 */
public final class CertificateFields {
    private CertificateFields() {
    }

    // ---- validity ----

    public static ValidityPeriod toOer(Validity v) {
        UINT16 n = new UINT16(v.amount());
        Duration d = switch (v.unit()) {
            case MICROSECONDS -> Duration.microseconds(n);
            case MILLISECONDS -> Duration.milliseconds(n);
            case SECONDS -> Duration.seconds(n);
            case MINUTES -> Duration.minutes(n);
            case HOURS -> Duration.hours(n);
            case SIXTY_HOURS -> Duration.sixtyHours(n);
            case YEARS -> Duration.years(n);
        };
        return new ValidityPeriod(new Time32(v.startTime32()), d);
    }

    public static Validity fromOer(ValidityPeriod p) {
        Duration d = p.getDuration();
        Validity.Unit unit = switch (d.getChoice()) {
            case Duration.microseconds -> Validity.Unit.MICROSECONDS;
            case Duration.milliseconds -> Validity.Unit.MILLISECONDS;
            case Duration.seconds -> Validity.Unit.SECONDS;
            case Duration.minutes -> Validity.Unit.MINUTES;
            case Duration.hours -> Validity.Unit.HOURS;
            case Duration.sixtyHours -> Validity.Unit.SIXTY_HOURS;
            case Duration.years -> Validity.Unit.YEARS;
            default -> throw new PkiException(ErrorCode.MALFORMED_ENCODING, "unknown Duration choice " + d.getChoice());
        };
        return new Validity(p.getStart().getValue().longValueExact(), unit, d.getDuration().getValue().intValueExact());
    }

    // ---- app permissions ----

    public static SequenceOfPsidSsp toOer(List<PsidSsp> perms) {
        List<org.bouncycastle.oer.its.ieee1609dot2.basetypes.PsidSsp> out = new ArrayList<>();
        for (PsidSsp p : perms) {
            ServiceSpecificPermissions ssp = switch (p.kind()) {
                case NONE -> null;
                case OPAQUE -> ServiceSpecificPermissions.opaque(p.ssp());
                case BITMAP -> ServiceSpecificPermissions.bitmapSsp(new BitmapSsp(p.ssp()));
            };
            out.add(new org.bouncycastle.oer.its.ieee1609dot2.basetypes.PsidSsp(new Psid(p.psid()), ssp));
        }
        return new SequenceOfPsidSsp(out);
    }

    public static List<PsidSsp> fromOer(SequenceOfPsidSsp seq) {
        if (seq == null) {
            return List.of();
        }
        List<PsidSsp> out = new ArrayList<>();
        for (var p : seq.getPsidSsps()) {
            long psid = p.getPsid().getPsid().longValueExact();
            ServiceSpecificPermissions ssp = p.getSsp();
            if (ssp == null) {
                out.add(PsidSsp.of(psid));
            } else if (ssp.getChoice() == ServiceSpecificPermissions.opaque) {
                out.add(PsidSsp.opaque(psid, ASN1OctetString.getInstance(ssp.getServiceSpecificPermissions()).getOctets()));
            } else if (ssp.getChoice() == ServiceSpecificPermissions.bitmapSsp) {
                out.add(PsidSsp.bitmap(psid, BitmapSsp.getInstance(ssp.getServiceSpecificPermissions()).getString().getOctets()));
            } else {
                throw new PkiException(ErrorCode.MALFORMED_ENCODING, "unknown SSP choice " + ssp.getChoice());
            }
        }
        return List.copyOf(out);
    }

    // ---- issue permissions ----

    public static SequenceOfPsidGroupPermissions toOerGroups(List<PsidGroupPermissions> groups) {
        List<org.bouncycastle.oer.its.ieee1609dot2.PsidGroupPermissions> out = new ArrayList<>();
        for (PsidGroupPermissions g : groups) {
            SubjectPermissions subject;
            if (g.all()) {
                subject = SubjectPermissions.all();
            } else {
                List<org.bouncycastle.oer.its.ieee1609dot2.basetypes.PsidSspRange> ranges = new ArrayList<>();
                for (PsidSspRange r : g.ranges()) {
                    SspRange range = switch (r.kind()) {
                        case ALL -> null;
                        case OPAQUE -> SspRange.opaque(new SequenceOfOctetString(
                                r.opaque().stream().map(b -> (ASN1OctetString) new DEROctetString(b)).toList()));
                        case BITMAP ->
                            SspRange.bitmapSspRange(new BitmapSspRange(new DEROctetString(r.value()), new DEROctetString(r.bitmask())));
                    };
                    ranges.add(new org.bouncycastle.oer.its.ieee1609dot2.basetypes.PsidSspRange(new Psid(r.psid()), range));
                }
                subject = SubjectPermissions.explicit(new SequenceOfPsidSspRange(ranges));
            }
            int eeBits = (g.eeApp() ? EndEntityType.app : 0) | (g.eeEnrol() ? EndEntityType.enrol : 0);
            out.add(new org.bouncycastle.oer.its.ieee1609dot2.PsidGroupPermissions(subject,
                    g.minChainLength() == 1 ? null : new ASN1Integer(g.minChainLength()),
                    g.chainLengthRange() == 0 ? null : new ASN1Integer(g.chainLengthRange()),
                    eeBits == EndEntityType.app ? null : new EndEntityType(eeBits)));
        }
        return new SequenceOfPsidGroupPermissions(out);
    }

    public static List<PsidGroupPermissions> fromOerGroups(SequenceOfPsidGroupPermissions seq) {
        if (seq == null) {
            return List.of();
        }
        List<PsidGroupPermissions> out = new ArrayList<>();
        for (var g : seq.getPsidGroupPermissions()) {
            SubjectPermissions subject = g.getSubjectPermissions();
            boolean all = subject.getChoice() == SubjectPermissions.all;
            List<PsidSspRange> ranges = new ArrayList<>();
            if (!all) {
                for (var r : SequenceOfPsidSspRange.getInstance(subject.getSubjectPermissions()).getPsidSspRanges()) {
                    long psid = r.getPsid().getPsid().longValueExact();
                    SspRange range = r.getSspRange();
                    if (range == null || range.getChoice() == SspRange.all) {
                        ranges.add(PsidSspRange.all(psid));
                    } else if (range.getChoice() == SspRange.opaque) {
                        ranges.add(PsidSspRange.opaque(psid, SequenceOfOctetString.getInstance(range.getSspRange())
                                .getOctetStrings().stream().map(ASN1OctetString::getOctets).toList()));
                    } else {
                        BitmapSspRange b = BitmapSspRange.getInstance(range.getSspRange());
                        ranges.add(PsidSspRange.bitmap(psid, b.getSspValue().getOctets(), b.getSspBitMask().getOctets()));
                    }
                }
            }
            int min = g.getMinChainLength() == null ? 1 : g.getMinChainLength().intValueExact();
            int range = g.getChainLengthRange() == null ? 0 : g.getChainLengthRange().intValueExact();
            int ee = g.getEeType() == null ? EndEntityType.app : eeBits(g.getEeType());
            out.add(new PsidGroupPermissions(all, ranges, min, range, (ee & EndEntityType.app) != 0, (ee & EndEntityType.enrol) != 0));
        }
        return List.copyOf(out);
    }

    private static int eeBits(EndEntityType t) {
        byte[] b = t.getType().getBytes();
        return b.length == 0 ? 0 : b[0] & 0xFF;
    }

    // ---- region ----

    public static org.bouncycastle.oer.its.ieee1609dot2.basetypes.GeographicRegion toOer(GeographicRegion r) {
        if (r == null) {
            return null;
        }
        if (r instanceof GeographicRegion.Circular c) {
            return org.bouncycastle.oer.its.ieee1609dot2.basetypes.GeographicRegion.circularRegion(new CircularRegion(
                    new TwoDLocation(new Latitude(c.centerLatitude()), new Longitude(c.centerLongitude())), new UINT16(c.radiusMetres())));
        }
        if (r instanceof GeographicRegion.Rectangular rr) {
            return org.bouncycastle.oer.its.ieee1609dot2.basetypes.GeographicRegion.rectangularRegion(new SequenceOfRectangularRegion(
                    rr.rectangles().stream().map(x -> new RectangularRegion(
                            new TwoDLocation(new Latitude(x.northWestLatitude()), new Longitude(x.northWestLongitude())),
                            new TwoDLocation(new Latitude(x.southEastLatitude()), new Longitude(x.southEastLongitude())))).toList()));
        }
        if (r instanceof GeographicRegion.Countries c) {
            return org.bouncycastle.oer.its.ieee1609dot2.basetypes.GeographicRegion.identifiedRegion(new SequenceOfIdentifiedRegion(
                    c.countryCodes().stream().map(code -> IdentifiedRegion.countryOnly(new CountryOnly(code))).toList()));
        }
        throw new PkiException(ErrorCode.INVALID_ARGUMENT, "polygonal regions are not issued by this PKI");
    }

    public static GeographicRegion fromOer(org.bouncycastle.oer.its.ieee1609dot2.basetypes.GeographicRegion r) {
        if (r == null) {
            return null;
        }
        var v = r.getGeographicRegion();
        return switch (r.getChoice()) {
            case org.bouncycastle.oer.its.ieee1609dot2.basetypes.GeographicRegion.circularRegion -> {
                CircularRegion c = CircularRegion.getInstance(v);
                yield new GeographicRegion.Circular(c.getCenter().getLatitude().getValue().longValueExact(),
                        c.getCenter().getLongitude().getValue().longValueExact(), c.getRadius().getValue().intValueExact());
            }
            case org.bouncycastle.oer.its.ieee1609dot2.basetypes.GeographicRegion.rectangularRegion ->
                new GeographicRegion.Rectangular(SequenceOfRectangularRegion.getInstance(v).getRectangularRegions().stream()
                        .map(x -> new GeographicRegion.Rectangle(
                                x.getNorthWest().getLatitude().getValue().longValueExact(),
                                x.getNorthWest().getLongitude().getValue().longValueExact(),
                                x.getSouthEast().getLatitude().getValue().longValueExact(),
                                x.getSouthEast().getLongitude().getValue().longValueExact()))
                        .toList());
            case org.bouncycastle.oer.its.ieee1609dot2.basetypes.GeographicRegion.identifiedRegion -> {
                List<Integer> codes = new ArrayList<>();
                for (IdentifiedRegion ir : SequenceOfIdentifiedRegion.getInstance(v).getIdentifiedRegions()) {
                    if (ir.getChoice() != IdentifiedRegion.countryOnly) {
                        // country with regions/subregions: keep the country (coarser, so subset checks stay safe only for the outer side)
                        throw new PkiException(ErrorCode.INVALID_PROFILE, "identified regions below country level are not supported");
                    }
                    codes.add(CountryOnly.getInstance(ir.getIdentifiedRegion()).getValue().intValueExact());
                }
                yield new GeographicRegion.Countries(codes);
            }
            case org.bouncycastle.oer.its.ieee1609dot2.basetypes.GeographicRegion.polygonalRegion ->
                new GeographicRegion.Polygonal(PolygonalRegion.getInstance(v).getTwoDLocations().size());
            default -> throw new PkiException(ErrorCode.MALFORMED_ENCODING, "unknown region choice " + r.getChoice());
        };
    }
}
