/** Plain-Java core of the Root CA service: no Spring imports (kept so by {@code CoreArchitectureTest}). */
package eu.vpki.rca.core;
