// Package tenantscope defines an Analyzer that reports lookups of
// idempotency records by key that are not scoped by tenant (rule IDEM007).
//
// # Analyzer tenantscope
//
// tenantscope: report idempotency-table lookups by key without a tenant column
//
// A SELECT or UPDATE on an idempotency/intent/dedup table whose WHERE clause
// filters by the key column but by no tenant column (tenant_id, client_id,
// account_id, ...) lets one tenant's key match another tenant's record: a
// key collision replays someone else's response, or blocks a legitimate
// charge. An INSERT … ON CONFLICT (key) DO UPDATE whose conflict target has
// the key but no tenant column is the same bug: the key of another tenant
// updates that tenant's row, and RETURNING hands it back. Lookups and
// conflict targets that include a tenant column, or that do not name the
// key, are not reported.
package tenantscope
