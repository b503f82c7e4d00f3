/**
 * Plain-Java core of the Root CA service (no Spring imports, kept so by {@code CoreArchitectureTest}):
 * {@link eu.vpki.rca.core.RootCertificateProvisioning} (first start), {@link eu.vpki.rca.core.AuthorityCertification}
 * and {@link eu.vpki.rca.core.Revocation} (the admin use cases), {@link eu.vpki.rca.core.RootCaService} (the state,
 * persisted by {@link eu.vpki.rca.core.RcaStateStore} before any answer), {@link eu.vpki.rca.core.CtlPublisher} and
 * {@link eu.vpki.rca.core.CrlPublisher} (the signed lists), {@link eu.vpki.rca.core.DcPublisher} (push to the DCs).
 * See docs/pki-bootstrap.md.
 */
package eu.vpki.rca.core;
