// Package aws is a minimal stub for tests.
package aws

func String(v string) *string { return &v }

func ToString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
