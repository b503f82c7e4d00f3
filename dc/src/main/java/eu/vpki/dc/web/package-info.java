/** HTTP interface of the Distribution Centre: TS 102 941 Annex D downloads, signed-list ingest (errors: the service shell's RFC 7807 problems). */
package eu.vpki.dc.web;
