/**
 * Plain-Java core of the Operator service: bulk registration of a fleet
 * ({@link eu.vpki.operator.core.FleetRegistration}), administration of single stations
 * ({@link eu.vpki.operator.core.StationAdministration}) and read-your-writes
 * ({@link eu.vpki.operator.core.ReadYourWrites}) over the replicated fleet state
 * ({@code eu.vpki.common.fleet}). No Spring imports (kept so by {@code CoreArchitectureTest}).
 * Its input and output records are plain records the shell binds JSON to. See {@code docs/operator.md}.
 */
package eu.vpki.operator.core;
