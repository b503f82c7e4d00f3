/** Configuration of the AA shell: validated {@code vpki.*} properties turned into the core's objects. */
package eu.vpki.aa.config;
