// Package iface: a call through an interface is judged by the
// implementations in view. ledgerimpl.Client sends the parameter as the
// idempotency key, so passing a fresh key through the interface is found.
// In view means analyzed before this package: a dependency (here a blank
// import, as the wiring would give), or this package itself.
package iface

import (
	"context"

	"github.com/google/uuid"

	_ "shapes/iface/ledgerimpl"
)

type Ledger interface {
	TransferFromPot(ctx context.Context, ik string, cents int64) error
}

type Notes interface {
	Note(ctx context.Context, text string) error
}

type Service struct {
	ledger Ledger
	notes  Notes
}

// Found: the implementation in ledgerimpl sinks ik.
func (s *Service) Collect(ctx context.Context, cents int64) error {
	ik := uuid.NewString()
	return s.ledger.TransferFromPot(ctx, ik, cents) // want `built from uuid\.NewString`
}

// Silent: a stable key through the same interface.
func (s *Service) CollectOrder(ctx context.Context, orderID string, cents int64) error {
	return s.ledger.TransferFromPot(ctx, "order-"+orderID, cents)
}

// Silent: no implementation in view sinks Note's parameter.
func (s *Service) Remark(ctx context.Context) error {
	return s.notes.Note(ctx, "at "+uuid.NewString())
}
