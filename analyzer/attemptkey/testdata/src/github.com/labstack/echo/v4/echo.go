// Package echo is a minimal stub of github.com/labstack/echo/v4 for tests.
package echo

type Context interface {
	JSON(code int, i any) error
	String(code int, s string) error
}
