package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.etsi.oer.EtsiTime;

import java.time.Duration;
import java.time.Instant;

/**
 * A certificate validity period (IEEE 1609.2 ValidityPeriod): a Time32 start and a duration in one
 * unit. A year is 31 556 952 s, sixty hours 216 000 s, as the standard defines them.
 */
public record Validity(long startTime32, Unit unit, int amount) {
    public enum Unit {
        MICROSECONDS(0), MILLISECONDS(0), SECONDS(1), MINUTES(60), HOURS(3_600), SIXTY_HOURS(216_000), YEARS(31_556_952);

        private final long seconds;

        Unit(long seconds) {
            this.seconds = seconds;
        }

        public long seconds() {
            return seconds;
        }
    }

    public Validity {
        if (amount < 0 || amount > 65_535) {
            throw new IllegalArgumentException("duration must fit a UINT16");
        }
    }

    /** Validity from {@code start} for {@code amount} units, start truncated to whole Time32 seconds. */
    public static Validity of(Instant start, Unit unit, int amount) {
        return new Validity(EtsiTime.toTime32(start), unit, amount);
    }

    /** The longest whole-unit validity of at most {@code seconds} from start, in the coarsest unit that is exact. */
    public static Validity ofSeconds(Instant start, long seconds) {
        for (Unit u : new Unit[]{Unit.YEARS, Unit.SIXTY_HOURS, Unit.HOURS, Unit.MINUTES, Unit.SECONDS}) {
            if (seconds % u.seconds == 0 && seconds / u.seconds <= 65_535) {
                return of(start, u, (int) (seconds / u.seconds));
            }
        }
        throw new IllegalArgumentException(seconds + " s cannot be expressed as a Duration");
    }

    /**
     * Where the validity of a certificate issued at {@code issuedAt} starts: {@code backdate} earlier,
     * in whole seconds, but never before {@code issuerStart} (the issuer's own validity start). Relying
     * stations whose clocks run behind ours (IEEE 1609.2 Time32 is TAI, which many ITS stacks compute
     * without the 5 leap seconds since 2004; vehicle clocks drift out of GNSS coverage) can then use a
     * fresh certificate at once. Callers count the certificate's duration from this start, so its
     * total validity stays within policy (docs/architecture.md, "Validity start").
     */
    public static Instant backdatedStart(Instant issuedAt, Duration backdate, Instant issuerStart) {
        if (backdate.isNegative()) {
            throw new IllegalArgumentException("backdate must not be negative: " + backdate);
        }
        Instant start = issuedAt.minus(backdate).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        return start.isBefore(issuerStart) ? issuerStart : start;
    }

    public Instant start() {
        return EtsiTime.fromTime32(startTime32);
    }

    /** First instant at which the certificate is no longer valid. */
    public Instant end() {
        long micros = switch (unit) {
            case MICROSECONDS -> amount;
            case MILLISECONDS -> amount * 1_000L;
            default -> amount * unit.seconds * 1_000_000L;
        };
        return start().plusNanos(micros * 1_000L);
    }

    public boolean contains(Instant t) {
        return !t.isBefore(start()) && t.isBefore(end());
    }

    /** Whether this period lies inside {@code outer}. */
    public boolean within(Validity outer) {
        return !start().isBefore(outer.start()) && !end().isAfter(outer.end());
    }
}
