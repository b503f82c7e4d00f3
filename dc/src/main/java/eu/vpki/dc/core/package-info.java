/** Plain-Java core of the Distribution Centre service: no Spring imports (kept so by {@code CoreArchitectureTest}). */
package eu.vpki.dc.core;
