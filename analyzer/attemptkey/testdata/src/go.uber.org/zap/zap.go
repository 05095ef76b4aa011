// Package zap is a minimal stub of go.uber.org/zap for tests.
package zap

type Field struct {
	Key    string
	String string
}

func String(key, val string) Field  { return Field{Key: key, String: val} }
func Any(key string, val any) Field { return Field{Key: key} }

type Logger struct{}

func (l *Logger) Info(msg string, fields ...Field)  {}
func (l *Logger) Error(msg string, fields ...Field) {}
func (l *Logger) With(fields ...Field) *Logger      { return l }
