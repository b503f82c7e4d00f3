/**
 * Plain-Java core of the Authorization Authority: {@link eu.vpki.aa.core.AuthorizationService}
 * issues one Authorization Ticket per request after the EA validated it; the EA is found through
 * {@link eu.vpki.aa.core.EaDirectory} and reached through
 * {@link eu.vpki.aa.core.AuthorizationValidationClient}; {@link eu.vpki.aa.core.AtPolicy},
 * {@link eu.vpki.aa.core.RequestWindow} and a {@link eu.vpki.common.replay.ReplayCache} decide what
 * is granted and what is fresh; each request leaves an {@link eu.vpki.aa.core.AuditRecord} in the
 * local audit log ({@link eu.vpki.common.audit.AuditLog}). No shared state between AA processes. No Spring imports (kept so by {@code CoreArchitectureTest}); see docs/aa.md.
 */
package eu.vpki.aa.core;
