/** HTTP side of the AA: the authorization access point (a servlet of the service shell) and its few RFC 7807 problems. */
package eu.vpki.aa.web;
