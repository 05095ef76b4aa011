package directives

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/directive"
	"github.com/idemcheck/idemcheck/internal/suggest"
)

// Name is the analyzer's name, and the rule of its warnings in lint's
// output.
const Name = "directives"

// Category marks a diagnostic as a warning, not a finding.
const Category = "warning"

// New returns the analyzer for the given rules, each named by its rule ID
// (as every idemcheck analyzer is).
func New(rules ...*analysis.Analyzer) *analysis.Analyzer {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.Name
	}
	slices.Sort(ids)
	return &analysis.Analyzer{
		Name:     Name,
		Doc:      "report //idemcheck:ignore directives that are malformed, name no rule, or match no finding",
		Requires: rules,
		Run:      func(pass *analysis.Pass) (any, error) { return nil, run(pass, ids) },
	}
}

func run(pass *analysis.Pass, ids []string) error {
	usage := directive.TakeUsage(pass.Pkg)
	idx := directive.Parse(pass.Fset, pass.Files)
	warn := func(pos token.Pos, format string, args ...any) {
		if !inGenerated(pass, pos) {
			pass.Report(analysis.Diagnostic{Pos: pos, Category: Category, Message: fmt.Sprintf(format, args...)})
		}
	}
	for _, pos := range idx.Spaced() {
		warn(pos, "\"// idemcheck:ignore\" is not a directive, so it suppresses nothing: write //idemcheck:ignore, without a space after //")
	}
	for _, d := range idx.Directives() {
		switch unknown := unknownRules(d, ids); {
		case len(d.Rules) == 0:
			warn(d.Pos, "idemcheck:ignore directive needs a rule and a reason: //idemcheck:ignore IDEMnnn <why this is safe>")
		case len(unknown) > 0:
			hint := ""
			if s := suggest.Unique(unknown[0], ids); s != "" {
				hint = " (did you mean " + s + "?)"
			}
			warn(d.Pos, "idemcheck:ignore directive names no rule %s%s: the rules are %s", unknown[0], hint, strings.Join(ids, ", "))
		case d.Reason == "":
			warn(d.Pos, "idemcheck:ignore directive needs a reason: //idemcheck:ignore %s <why this is safe>", strings.Join(d.Rules, ","))
		default:
			if unused := unusedRules(d, ids, usage); len(unused) > 0 {
				warn(d.Pos, "idemcheck:ignore directive matched no %s finding on its line or the next: remove it, or name the rule reported there", strings.Join(unused, " or "))
			}
		}
	}
	return nil
}

// unknownRules are the rules d names that are neither a rule ID nor "all".
func unknownRules(d directive.Directive, ids []string) []string {
	var out []string
	for _, r := range d.Rules {
		if r != "ALL" && !slices.Contains(ids, r) {
			out = append(out, r)
		}
	}
	return out
}

// unusedRules are the rules d names that ran and suppressed nothing with
// it; "all" is unused when no rule suppressed anything with it.
func unusedRules(d directive.Directive, ids []string, u *directive.Usage) []string {
	var out []string
	for _, r := range d.Rules {
		if r == "ALL" {
			if !u.Used(d.Pos, r) && slices.ContainsFunc(ids, u.Ran) {
				out = append(out, "")
			}
			continue
		}
		if u.Ran(r) && !u.Used(d.Pos, r) {
			out = append(out, r)
		}
	}
	if slices.Contains(out, "") {
		return []string{"(any rule's)"}
	}
	return out
}

// inGenerated reports whether pos lies in a file marked "Code generated …
// DO NOT EDIT.": its directives are the generator's to fix.
func inGenerated(pass *analysis.Pass, pos token.Pos) bool {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return ast.IsGenerated(f)
		}
	}
	return false
}
