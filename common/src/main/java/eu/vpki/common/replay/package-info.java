/**
 * The replay check's contract ({@link eu.vpki.common.replay.ReplayCache}): plain Java, so the EA and
 * AA cores depend on it while the service shell supplies the implementation (Caffeine).
 */
package eu.vpki.common.replay;
