/**
 * The load client's report: {@link eu.vpki.station.report.RunReport} (what a run measured) written as
 * text, JSON, CSV and an HTML page with inline SVG charts ({@link eu.vpki.station.report.ReportCharts}
 * on {@link eu.vpki.station.report.SvgChart}); how to read it: {@code docs/testbed.md}.
 */
package eu.vpki.station.report;
