// Package sqlcapp calls sqlc's generated package from another package.
package sqlcapp

import (
	"context"

	"sqlcdb"
)

func replay(ctx context.Context, q *sqlcdb.Queries, key string) ([]byte, error) {
	return q.GetIdempotencyKey(ctx, key) // want `select on idempotency_keys filters by idempotency_key without a tenant column`
}

func replayHelper(ctx context.Context, q *sqlcdb.Queries, key string) ([]byte, error) {
	return q.Replay(ctx, key) // want `select on idempotency_keys filters by idempotency_key without a tenant column`
}

// Silent: scoped.
func scoped(ctx context.Context, q *sqlcdb.Queries, tenant, key string) ([]byte, error) {
	return q.GetScopedKey(ctx, tenant, key)
}

// Through sqlc's Querier interface: the same query.
func replayQuerier(ctx context.Context, q sqlcdb.Querier, key string) ([]byte, error) {
	return q.GetIdempotencyKey(ctx, key) // want `select on idempotency_keys filters by idempotency_key without a tenant column`
}

// Silent: scoped, through the interface.
func scopedQuerier(ctx context.Context, q sqlcdb.Querier, tenant, key string) ([]byte, error) {
	return q.GetScopedKey(ctx, tenant, key)
}
