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
// charge. Lookups that include a tenant column, or that do not filter by the
// key, are not reported.
package tenantscope
