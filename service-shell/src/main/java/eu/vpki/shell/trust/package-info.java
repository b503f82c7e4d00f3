/**
 * The trust-list client configuration shared by the services that fetch the RCA's CTL and CRL from the
 * Distribution Centres (EA, AA): {@link eu.vpki.shell.trust.TrustListProperties}.
 */
package eu.vpki.shell.trust;
