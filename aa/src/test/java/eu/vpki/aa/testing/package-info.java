/** Test support: a whole local deployment of real services ({@link eu.vpki.aa.testing.LocalPki}) with the thin functions that take the one simulated station ({@code eu.vpki.station}) to it over HTTP. */
package eu.vpki.aa.testing;
