package eu.vpki.station.load;

/**
 * The result of one simulated OBU operation: success, or failure with a code (an ETSI response-code
 * name such as {@code enrolment:unknownits}, or a client-side label such as {@code http:503},
 * {@code timeout}, {@code verification:wrong-key}).
 */
public record Outcome(boolean success, String code) {
    public static final Outcome OK = new Outcome(true, "ok");

    public static Outcome failure(String code) {
        return new Outcome(false, code);
    }
}
