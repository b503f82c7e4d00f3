/**
 * The fault-injection harness ({@code vpki faults}, docs/reliability.md): a seeded schedule of
 * faults ({@link eu.vpki.loadclient.faults.FaultSchedule}) injected into the real local cluster
 * ({@link eu.vpki.loadclient.faults.FaultInjector}) while a workload records every operation
 * ({@link eu.vpki.loadclient.faults.ConsistencyWorkload}, {@link eu.vpki.loadclient.faults.History}),
 * the replicas' state read through the replication library after healing, everything kept in a
 * history file ({@link eu.vpki.loadclient.faults.HistoryFile}), and seven checks of what each
 * consistency mode promises, reported per mode and fault kind ({@link eu.vpki.loadclient.faults.FaultReport}).
 */
package eu.vpki.loadclient.faults;
