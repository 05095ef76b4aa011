// Package common converts values for the database driver, as sqlc's
// callers do (pgtype.Text).
package common

type Text struct {
	String string
	Valid  bool
}

func StringToText(s string) Text { return Text{String: s, Valid: s != ""} }
