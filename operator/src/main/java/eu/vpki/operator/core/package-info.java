/** Plain-Java core of the Operator service: no Spring imports (kept so by {@code CoreArchitectureTest}). */
package eu.vpki.operator.core;
