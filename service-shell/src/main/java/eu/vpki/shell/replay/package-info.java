/**
 * The replay caches of the EA and the AA on Caffeine (version managed by Spring Boot), with their
 * meters: Micrometer's Caffeine binding ({@code cache.gets{result=hit}} = replays refused,
 * {@code cache.size}, ...) and {@code vpki.replay.early.evictions}.
 */
package eu.vpki.shell.replay;
