package sqlcdb

import "context"

// Store is hand-written code of the generated package.
type Store struct{ q *Queries }

// Reported here, at the first caller outside generated code, with the
// generated query as related information.
func (s *Store) Stored(ctx context.Context, key string) ([]byte, error) {
	return s.q.GetIdempotencyKey(ctx, key) // want `select on idempotency_keys filters by idempotency_key without a tenant column`
}

// Silent: the generated query is scoped by tenant.
func (s *Store) StoredFor(ctx context.Context, tenant, key string) ([]byte, error) {
	return s.q.GetScopedKey(ctx, tenant, key)
}
