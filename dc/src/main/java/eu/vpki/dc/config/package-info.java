/** Spring shell of the Distribution Centre: validated properties, trust bootstrap, pulls from the RCA. */
package eu.vpki.dc.config;
