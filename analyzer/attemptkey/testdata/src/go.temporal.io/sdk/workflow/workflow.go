// Package workflow is a look-alike of Temporal's workflow package. Now and
// SideEffect are replay-stable: a replayed workflow sees the values
// recorded in its history. This stub reads the clock inside Now, so only
// the key model's barrier, by identity, keeps it silent.
package workflow

import (
	"context"
	"time"
)

type Context = context.Context

// Now returns the workflow's current time, recorded in its history.
func Now(ctx Context) time.Time { return time.Now() }

// Encoded is a value recorded in the workflow history.
type Encoded struct{ v any }

// Get decodes the recorded value.
func (e Encoded) Get(ptr any) error { return nil }

// SideEffect runs f once and records its result.
func SideEffect(ctx Context, f func(ctx Context) any) Encoded { return Encoded{f(ctx)} }
