/** The audit trail's contract ({@link eu.vpki.common.audit.AuditLog}), plain Java for the cores; the service shell writes it. */
package eu.vpki.common.audit;
