/**
 * The fleet state shared by EA and Operator replicas: registered stations ({@link eu.vpki.common.fleet.StationRecord}),
 * issued enrolment credentials ({@link eu.vpki.common.fleet.EcRecord}), the replicated commands that
 * change them ({@link eu.vpki.common.fleet.FleetCommands}) and reads from one replica's Redis
 * ({@link eu.vpki.common.fleet.FleetState}).
 *
 * <p>Key layout ({@link eu.vpki.common.fleet.FleetKeys}): the Operator writes stations and fleet
 * membership, the EA writes ECs and the station-to-current-EC pointer; no key has writers of both
 * kinds. Every record is a {@code PutIfNewer} whose version the origin fixes
 * ({@link eu.vpki.common.fleet.VersionClock}), so every interleaving of FIFO delivery converges.
 * Plain Java: no Spring. See {@code docs/ea.md} and {@code docs/operator.md}.
 */
package eu.vpki.common.fleet;
