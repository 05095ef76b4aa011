// Package directives defines the analyzer that reports mistakes in
// //idemcheck:ignore directives, as warnings: a directive that suppresses
// nothing should say so, or the reader believes a finding is handled.
//
// It reports, once per directive and whichever rules it names:
//
//   - a comment written "// idemcheck:ignore …", with a space after the
//     slashes, which Go's directive convention and idemcheck do not read;
//   - a directive without a rule, or without a reason;
//   - a rule ID that no rule has;
//   - a directive that matched nothing: none of the findings of a rule it
//     names (or, for "all", of any rule) was on its line or the next.
//
// The last needs to know what the rules suppressed: the analyzer requires
// every rule's analyzer, so it runs after them on the same package, and
// reads what package analyzer/internal/directive recorded as they
// reported. A rule that did not run (the configuration disables it) has
// its directives left alone.
//
// The diagnostics have category "warning": idemcheck lint lists them apart
// from findings, and they do not change its exit status.
package directives
