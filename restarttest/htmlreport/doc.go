// Package htmlreport renders a restart-test run as one self-contained HTML
// file (restart-test --report FILE.html): per round a timeline of the
// attempts, with the kill, each effect request with its key and the fake
// provider's answer, the committed writes and the rendezvous holds; then the
// same moments as a table, and the checks. Colours follow the verdicts, and
// a failing check is drawn and explained at the moment it broke: the second
// effect for effect-once, the first request with another key for
// key-stable, the attempt that ended unacknowledged for acked.
//
// It is built only from the Report the run returns (the JSON output, plus
// the commit and hold times the JSON leaves out). The file loads nothing:
// its style sheet and its SVG are inline, and it has no script.
package htmlreport
