/** HTTP side of the AA: the authorization access point and its few RFC 7807 problems. */
package eu.vpki.aa.web;
