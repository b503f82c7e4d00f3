/** Spring shell of the Root CA: validated properties and the wiring of the plain-Java core, the renewal/publication schedule. */
package eu.vpki.rca.config;
