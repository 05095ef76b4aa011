// Package fresh: generators outside the key model are judged by what they
// do. A result that depends on the clock, the entropy source or a counter
// is fresh per call, inferred from the library analyzed as a dependency.
package fresh

import (
	"context"
	"net/http"
	"time"

	"go.temporal.io/sdk/workflow"
	"ids.example/ksuid"
	"ids.example/nanoid"
	"ids.example/prefixed"
	"ids.example/snowflake"
	"ids.example/stable"
	"ids.example/ulid"
	"ids.example/xid"
)

type Req struct {
	Amount         int64
	IdempotencyKey string
}

func send(r Req) {}

// Found: fresh per call.

func monotonicULID(amount int64) {
	send(Req{Amount: amount, IdempotencyKey: ulid.Make().String()}) // want `idempotency key built from rand\.Reader \(random per attempt\) via ulid\.Make;`
}

func ksuidKey(req *http.Request) {
	req.Header.Set("Idempotency-Key", ksuid.New().String()) // want `idempotency key built from`
}

func xidKey(req *http.Request) {
	req.Header.Set("Idempotency-Key", xid.New().String()) // want `idempotency key built from`
}

func snowflakeKey(req *http.Request, node *snowflake.Node) {
	req.Header.Set("Idempotency-Key", node.Generate().String()) // want `idempotency key built from time\.Now`
}

func nanoidKey(req *http.Request) {
	id, _ := nanoid.New()
	req.Header.Set("Idempotency-Key", id) // want `idempotency key built from rand\.Read`
}

func prefixHelper(amount int64) {
	send(Req{Amount: amount, IdempotencyKey: prefixed.NewWithPrefix("pay")}) // want `via ulid\.Make → prefixed\.NewWithPrefix`
}

func counterKey(req *http.Request) {
	req.Header.Set("Idempotency-Key", prefixed.Next()) // want `built from variable seq \(counter, differs per call\)`
}

func atomicCounterKey(req *http.Request) {
	req.Header.Set("Idempotency-Key", prefixed.NextAtomic()) // want `\(counter, differs per call\)`
}

var issued int

// A local counter: each call draws the next number.
func localCounter(req *http.Request) {
	issued++
	req.Header.Set("Idempotency-Key", "pay-"+itoa(issued)) // want `\(counter, differs per call\)`
}

func itoa(n int) string { return string(rune('0' + n%10)) }

// Silent: look-alikes whose results do not change per call.

func derivedID(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", stable.New(orderID))
}

func fixedNow(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", orderID+stable.Now().Format(time.RFC3339))
}

func parsedULID(req *http.Request, stored string) {
	id, _ := ulid.Parse(stored)
	req.Header.Set("Idempotency-Key", id.String())
}

func prefixOfStable(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", prefixed.WithPrefix("pay", orderID))
}

func configSetting(req *http.Request, c *stable.Config, orderID string) {
	req.Header.Set("Idempotency-Key", orderID+c.Next())
}

// Temporal's workflow.Now and SideEffect are replay-stable.
func workflowNow(ctx workflow.Context, req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", orderID+workflow.Now(ctx).Format(time.RFC3339))
}

func workflowSideEffect(ctx context.Context, req *http.Request) {
	var key string
	workflow.SideEffect(ctx, func(ctx workflow.Context) any { return ulid.Make().String() }).Get(&key)
	req.Header.Set("Idempotency-Key", key)
}
