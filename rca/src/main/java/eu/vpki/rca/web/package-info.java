/** HTTP interface of the Root CA: admin API (bearer token), public list downloads, RFC 7807 problems. */
package eu.vpki.rca.web;
