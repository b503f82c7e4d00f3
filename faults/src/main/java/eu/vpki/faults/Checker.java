package eu.vpki.faults;

/** One of the checks, run on a finished run's record (also on a history file read back). */
interface Checker {
    CheckResult check(RunRecord run);
}
