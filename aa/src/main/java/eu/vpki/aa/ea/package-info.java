/**
 * How the AA reaches EAs: the asynchronous HTTP clients behind {@link eu.vpki.aa.core.AuthorizationValidationClient}
 * ({@link eu.vpki.aa.ea.NettyValidationClient} on the access point server's event loops, the default;
 * {@link eu.vpki.aa.ea.JdkValidationClient}).
 */
package eu.vpki.aa.ea;
