// Package restarttest runs a message handler against a real PostgreSQL and a
// fake payment provider, kills it at the points where real crashes happen,
// redelivers the same message, and checks that the effect happened exactly
// once.
//
// A run is a list of rounds. Each round recreates a private schema
// (idemcheck_rt_<random>), applies the user's setup SQL inside it, delivers
// the message to the handler, kills the handler at the round's kill point,
// redelivers with a short backoff until an attempt is acknowledged, and then
// checks what reached the provider: key-present, key-stable, payload-frozen,
// effect-once and acked.
//
// The handler protocol is the one documented in docs/restart-test.md: the command runs
// with `sh -c` in its own process group, once per delivery, with the message
// on stdin (exit 0 acknowledges), or, as Config.Delivery says, as a
// long-running HTTP server the message is POSTed to (plainly, or as the
// API's client under the Idempotency-Key contract) or a consumer of a
// RabbitMQ queue or NATS JetStream stream. It finds DATABASE_URL, the PG* variables,
// PROVIDER_URL, MODEL_URL and IDEMPOTENCY_HMAC_KEY in its environment.
//
// Use Run to execute a run, pgembed.Start for a throwaway PostgreSQL, and
// textreport.Write, htmlreport or the JSON encoding of Report to present
// the result.
package restarttest
