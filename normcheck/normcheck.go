// Package normcheck proves that every spelling of an identifier (CPF,
// CNPJ, phone, e-mail, random Pix key) normalizes to one value: with a
// derive rule, or with the user's own key command in any language, whose
// agreement is then audited so that it cannot pass for the wrong reason.
//
// It returns reports; printing them is the caller's business.
package normcheck

import (
	"context"
	"errors"
	"fmt"

	"github.com/idemcheck/idemcheck/derive"
	"github.com/idemcheck/idemcheck/derive/pixkey"
)

// Normalizer turns one spelling into the value that is compared: a rule's
// output, or the key printed by a key command.
type Normalizer struct {
	// Describe says in words what normalizes, for people.
	Describe string
	// Info says it for machines (the "normalizer" of the JSON report).
	Info Info
	// Normalize returns the value compared for one spelling.
	Normalize func(ctx context.Context, spelling string) (string, error)
	// Audits adds the key-command checks: the same input twice, another
	// identifier once.
	Audits bool
	// FailFast makes an error from Normalize end the check (the key
	// command failed: an environment error, not a finding).
	FailFast bool
}

// Info names what normalizes.
type Info struct {
	Rule          string `json:"rule,omitempty"`
	SchemaVersion int    `json:"schema_version,omitempty"`
	Schema        string `json:"schema,omitempty"`
	Action        string `json:"action,omitempty"`
	Field         string `json:"field,omitempty"`
	Exec          string `json:"exec,omitempty"`
}

// RuleNormalizer normalizes with the derive rule named in info.Rule. The
// typed Pix key rule reads the key type from a sibling field; here the
// type is kind itself.
func RuleNormalizer(info Info, describe string, kind pixkey.Kind) *Normalizer {
	rule := info.Rule
	normalize := func(_ context.Context, s string) (string, error) { return derive.NormalizeString(rule, s) }
	if rule == derive.RulePixKeyTyped {
		describe += fmt.Sprintf(" with key type %s", kind)
		normalize = func(_ context.Context, s string) (string, error) {
			return derive.NormalizePixKeyTyped(string(kind), s)
		}
	}
	return &Normalizer{Describe: describe, Info: info, Normalize: normalize}
}

// Report is the result of checking some values (the --format json
// document, documented in docs/normcheck.md).
type Report struct {
	Type       string        `json:"type"`
	Normalizer Info          `json:"normalizer"`
	OK         bool          `json:"ok"`
	Values     []ValueReport `json:"values"`
}

// ValueReport is the result for one value.
type ValueReport struct {
	Value     string          `json:"value"`
	Valid     bool            `json:"valid"`
	Error     string          `json:"error,omitempty"`     // why the value is invalid
	Canonical string          `json:"canonical,omitempty"` // the identifier's canonical form
	Reference string          `json:"reference,omitempty"` // what the value as given normalizes to
	Agree     bool            `json:"agree"`
	Spellings []SpellingCheck `json:"spellings,omitempty"`
	Different []string        `json:"different,omitempty"` // spellings that normalize otherwise
	Checks    []AuditCheck    `json:"checks,omitempty"`    // key commands only
}

// SpellingCheck is one spelling and what it normalized to.
type SpellingCheck struct {
	Form       string `json:"form"`
	Spelling   string `json:"spelling"`
	Normalized string `json:"normalized,omitempty"`
	Error      string `json:"error,omitempty"`
	Same       bool   `json:"same"`
}

// Passed reports whether the value is valid, its spellings agree and every
// audit check passed.
func (v *ValueReport) Passed() bool {
	if !v.Valid || !v.Agree {
		return false
	}
	for _, c := range v.Checks {
		if !c.OK {
			return false
		}
	}
	return true
}

// Check checks every value. Invalid values and disagreeing spellings are
// in the report; only an environment error (a failing key command, a
// cancelled ctx) is returned as an error.
func Check(ctx context.Context, kind pixkey.Kind, values []string, norm *Normalizer) (*Report, error) {
	report := &Report{Type: string(kind), Normalizer: norm.Info, OK: true}
	for i, v := range values {
		vr, err := CheckValue(ctx, kind, v, norm)
		if ce := (*CommandError)(nil); errors.As(err, &ce) {
			ce.Value = i + 1
		}
		if err != nil {
			return nil, err
		}
		report.OK = report.OK && vr.Passed()
		report.Values = append(report.Values, vr)
	}
	return report, nil
}

// CheckValue validates value, normalizes each of its spellings and compares
// them with the value as given.
func CheckValue(ctx context.Context, kind pixkey.Kind, value string, norm *Normalizer) (ValueReport, error) {
	vr := ValueReport{Value: value}
	spellings, err := pixkey.Spellings(kind, value)
	if err != nil {
		var invalid *pixkey.Error
		if !errors.As(err, &invalid) {
			return vr, err
		}
		vr.Error = fmt.Sprintf("invalid %s: %s", kind, invalid.Reason)
		return vr, nil
	}
	vr.Valid = true
	vr.Canonical, _ = pixkey.Normalize(kind, value)
	vr.Agree = true
	var referenceErr error
	for i, sp := range spellings {
		out, err := norm.Normalize(ctx, sp.Value)
		if err != nil && (norm.FailFast || ctx.Err() != nil) {
			return vr, withForm(err, sp.Label)
		}
		sc := SpellingCheck{Form: sp.Label, Spelling: sp.Value, Normalized: out}
		if err != nil {
			sc.Error = err.Error()
		}
		if i == 0 {
			vr.Reference, referenceErr = out, err
		}
		sc.Same = err == nil && referenceErr == nil && out == vr.Reference
		if !sc.Same {
			vr.Agree = false
			vr.Different = append(vr.Different, sp.Value)
		}
		vr.Spellings = append(vr.Spellings, sc)
	}
	if norm.Audits {
		checks, err := auditChecks(ctx, kind, value, vr.Reference, norm)
		if err != nil {
			return vr, err
		}
		vr.Checks = checks
	}
	return vr, nil
}

// withForm names the spelling a key command failed on.
func withForm(err error, form string) error {
	if ce := (*CommandError)(nil); errors.As(err, &ce) && ce.Form == "" {
		ce.Form = form
	}
	return err
}
