// Package floatkey defines an Analyzer that reports float values reaching
// an idempotency key (rule IDEM003).
//
// # Analyzer floatkey
//
// floatkey: report float32/float64 values that flow into an idempotency key
//
// Two attempts that compute the same amount through a different order of
// float operations print different digits (0.1 + 0.2 is 0.30000000000000004),
// so the key changes and the provider charges again. Money must be integer
// cents. A float converted to an integer before it reaches the key is fine;
// floats used for display or logging are not reported.
package floatkey
