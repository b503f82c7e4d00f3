package eu.vpki.common.fleet;

/** Life cycle of a registered station: ACTIVE and SUSPENDED may alternate; REVOKED is final. */
public enum StationStatus {
    ACTIVE, SUSPENDED, REVOKED;

    /** Whether an operator may move a station from this status to {@code next}. */
    public boolean mayBecome(StationStatus next) {
        return switch (this) {
            case ACTIVE -> next == SUSPENDED || next == REVOKED;
            case SUSPENDED -> next == ACTIVE || next == REVOKED;
            case REVOKED -> false;
        };
    }
}
