/** Plain-Java core of the Authorization Authority service: no Spring imports (kept so by {@code CoreArchitectureTest}). */
package eu.vpki.aa.core;
