/**
 * An authority's identity at start-up: the key store ({@code vpki.keystore.*}, one PKCS#12 file,
 * its password from a file or the environment), the authority certificate from its file, and the
 * two key pairs named by their aliases, checked against the certificate before the service answers.
 */
package eu.vpki.shell.keys;
