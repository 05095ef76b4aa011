package normcheck

import (
	"context"

	"github.com/idemcheck/idemcheck/derive/pixkey"
)

// AuditCheck is an extra check of a key command: "repeat" (the same input
// twice gives the same key) and "other_value" (another identifier gives
// another key).
type AuditCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Input  string `json:"input"`
	Key    string `json:"key"`
	Detail string `json:"detail"`
}

// auditChecks guards against a key command that passes for the wrong
// reason: a key drawn inside the attempt (uuid, time) changes between two
// runs on the same input, and a key that ignores the field stays the same
// for another identifier.
func auditChecks(ctx context.Context, kind pixkey.Kind, value, reference string, norm *Normalizer) ([]AuditCheck, error) {
	again, err := norm.Normalize(ctx, value)
	if err != nil {
		return nil, withForm(err, "as given, repeated")
	}
	repeat := AuditCheck{Name: "repeat", OK: again == reference, Input: value, Key: again,
		Detail: "the same input gives the same key"}
	if !repeat.OK {
		repeat.Detail = "the same input gave two keys: the key is drawn inside the attempt (random, time, message id), not derived from the payload"
	}
	other, err := pixkey.Other(kind, value)
	if err != nil {
		return nil, err
	}
	otherKey, err := norm.Normalize(ctx, other)
	if err != nil {
		return nil, withForm(err, "another identifier")
	}
	distinct := AuditCheck{Name: "other_value", OK: otherKey != reference, Input: other, Key: otherKey,
		Detail: "another identifier gives another key"}
	if !distinct.OK {
		distinct.Detail = "another identifier gives the same key: the command ignores the field, so its agreement proves nothing"
	}
	return []AuditCheck{repeat, distinct}, nil
}
