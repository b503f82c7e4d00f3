/**
 * The fault-injection harness ({@code vpki faults}, docs/reliability.md): a seeded schedule of
 * faults ({@link eu.vpki.faults.FaultSchedule}) injected into the real local cluster
 * ({@link eu.vpki.faults.FaultInjector}) while a workload records every operation
 * ({@link eu.vpki.faults.ConsistencyWorkload}, {@link eu.vpki.faults.History}),
 * the replicas' state read through the replication library after healing, everything kept in a
 * history file ({@link eu.vpki.faults.HistoryFile}), and ten checks of what each
 * consistency mode promises, reported per mode and fault kind ({@link eu.vpki.faults.FaultReport}).
 */
package eu.vpki.faults;
