// Package middleware is a minimal stub for tests.
package middleware

import "context"

func GetReqID(ctx context.Context) string { return "" }
