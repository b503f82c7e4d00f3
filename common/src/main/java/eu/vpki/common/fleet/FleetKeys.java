package eu.vpki.common.fleet;

import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.replication.ReplicatedKeyspace;

import java.util.regex.Pattern;

/**
 * Redis keys of the fleet state. EA and Operator replicas of one deployment use exactly this
 * keyspace (and one JGroups cluster), so a state transfer or digest covers all of it.
 *
 * <table>
 *   <caption>keys</caption>
 *   <tr><th>key</th><th>kind</th><th>written by</th></tr>
 *   <tr><td>{@code fleet:station:<canonical id>}</td><td>record ({@link StationRecord})</td><td>Operator</td></tr>
 *   <tr><td>{@code fleet:station-permissions:<canonical id>}</td><td>record {@code permissions=...}: the
 *       permissions register, once changed after the registration ({@link StationRecord})</td><td>Operator</td></tr>
 *   <tr><td>{@code fleet:operator:<operator id>}</td><td>set of canonical ids</td><td>Operator</td></tr>
 *   <tr><td>{@code fleet:ec:<EC HashedId8 hex>}</td><td>record ({@link EcRecord})</td><td>EA</td></tr>
 *   <tr><td>{@code fleet:station-ec:<canonical id>}</td><td>record {@code ec=<HashedId8 hex>}: the latest EC</td><td>EA</td></tr>
 * </table>
 */
public final class FleetKeys {
    public static final String STATION = "fleet:station:";
    public static final String OPERATOR = "fleet:operator:";
    public static final String EC = "fleet:ec:";
    public static final String STATION_EC = "fleet:station-ec:";
    public static final String STATION_PERMISSIONS = "fleet:station-permissions:";

    /** The replicated keyspace of EA and Operator replicas. */
    public static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of(STATION, OPERATOR, EC, STATION_EC, STATION_PERMISSIONS);

    /** Canonical ids and operator ids: printable, key-safe, at most 64 characters. */
    public static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    private FleetKeys() {
    }

    public static String station(String canonicalId) {
        return STATION + canonicalId;
    }

    public static String operator(String operatorId) {
        return OPERATOR + operatorId;
    }

    public static String ec(HashedId8 ec) {
        return EC + ec.toHex();
    }

    public static String stationEc(String canonicalId) {
        return STATION_EC + canonicalId;
    }

    public static String stationPermissions(String canonicalId) {
        return STATION_PERMISSIONS + canonicalId;
    }
}
