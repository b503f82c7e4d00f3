/**
 * Plain-Java core of the Enrolment Authority: enrolment ({@link eu.vpki.ea.core.EnrolmentService})
 * and authorization validation ({@link eu.vpki.ea.core.AuthorizationValidationService}) over the
 * replicated fleet state ({@code eu.vpki.common.fleet}). Clock, randomness, keys, the replica and
 * the {@code MeterRegistry} come in through constructors. No Spring imports (kept so by
 * {@code CoreArchitectureTest}); no BouncyCastle or OER types either: the ETSI codec lives in
 * {@code eu.vpki.common.etsi}. Walk-through: {@code docs/ea.md}.
 */
package eu.vpki.ea.core;
