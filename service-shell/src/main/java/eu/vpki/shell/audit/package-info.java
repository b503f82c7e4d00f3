/**
 * The audit log of every authority through logback: one file per authority and process, apart from
 * the debug logs, rolled by size and day by logback, text or structured (JSON) lines; a write that
 * fails is reported to the caller and makes the service out of service until writes succeed again.
 */
package eu.vpki.shell.audit;
