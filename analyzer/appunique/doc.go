// Package appunique defines an Analyzer that reports idempotency records
// whose uniqueness is decided by the application instead of the database
// (rule IDEM006).
//
// # Analyzer appunique
//
// appunique: report inserts into idempotency tables without ON CONFLICT
//
// An INSERT into a table whose name says idempotency, intent, dedup or
// processed, without ON CONFLICT / ON DUPLICATE KEY / INSERT IGNORE, leaves
// the decision "have we seen this key?" to the code around it. After a
// SELECT on the same table it is the read-decide-write race: two deliveries
// of one message both read "not seen" and both act. Functions that handle
// the unique violation themselves (SQLSTATE 23505, MySQL 1062) are not
// reported: there the database decides. Neither are inserts into ClickHouse
// tables, which have no ON CONFLICT: tables the package creates with a
// ReplacingMergeTree engine (they keep one row per sorting key by design),
// and any insert through a ClickHouse client's types.
package appunique
