// Package derive is a stub of github.com/idemcheck/idemcheck/derive with the
// API IDEM001's Good example uses (the real package does not build in the
// analysis tests' GOPATH).
package derive

type Intent struct {
	Tenant  string
	Action  string
	Payload []byte
}

type Schema struct{}

func DefaultSchema() *Schema { return &Schema{} }

func (s *Schema) Key(secret []byte, in Intent) (string, error) { return "", nil }
