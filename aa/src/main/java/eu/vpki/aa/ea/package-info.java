/** How the AA reaches EAs: the HTTP client behind {@link eu.vpki.aa.core.AuthorizationValidationClient}. */
package eu.vpki.aa.ea;
