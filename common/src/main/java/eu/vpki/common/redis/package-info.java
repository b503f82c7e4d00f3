/**
 * Running real {@code redis-server} processes: finding the binary (override, PATH, or the one shipped
 * in the embedded-redis jar) and controlling the process. Used by the tests' Redis fixture and by the
 * local cluster of the load client.
 */
package eu.vpki.common.redis;
