// Package logrus is a minimal stub of github.com/sirupsen/logrus for tests.
package logrus

type Fields map[string]any

type Entry struct{ Data Fields }

func WithField(key string, value any) *Entry { return &Entry{Data: Fields{key: value}} }
func WithFields(f Fields) *Entry             { return &Entry{Data: f} }
func (e *Entry) Info(args ...any)            {}
