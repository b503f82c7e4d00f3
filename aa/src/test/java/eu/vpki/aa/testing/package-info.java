/** Test support: a whole local deployment of real services ({@link eu.vpki.aa.testing.LocalPki}) and an ITS station over HTTP. */
package eu.vpki.aa.testing;
