package eu.vpki.faults;

/**
 * One thing a check found.
 *
 * @param check      the check
 * @param faultIndex the fault it is attributed to (index in the schedule), -1 for none
 * @param subject    what it is about (an operation, a key, a token)
 * @param detail     what was expected and what was found, where
 * @param violation  whether it breaks what docs/replication.md promises for the run's mode
 * @param valueMs    a duration that comes with it (staleness, ms before a crash), -1 if none
 */
public record Finding(Check check, int faultIndex, String subject, String detail, boolean violation, long valueMs) {
}
