/**
 * The load client's report: {@link eu.vpki.loadclient.report.RunReport} (what a run measured) written as
 * text, JSON, CSV and an HTML page with inline SVG charts ({@link eu.vpki.loadclient.report.ReportCharts}
 * on {@link eu.vpki.loadclient.report.SvgChart}); how to read it: {@code docs/load-client.md}.
 */
package eu.vpki.loadclient.report;
