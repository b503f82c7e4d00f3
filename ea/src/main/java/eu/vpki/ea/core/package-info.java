/** Plain-Java core of the Enrolment Authority service: no Spring imports (kept so by {@code CoreArchitectureTest}). */
package eu.vpki.ea.core;
