// Package option is a minimal stub for tests.
package option

type RequestOption func()

func WithHeader(key, value string) RequestOption { return func() {} }
