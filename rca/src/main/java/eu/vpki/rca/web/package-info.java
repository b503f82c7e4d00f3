/** HTTP interface of the Root CA: admin API (bearer token), public list downloads (errors: the service shell's RFC 7807 problems). */
package eu.vpki.rca.web;
