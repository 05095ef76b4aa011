// Package types is a minimal stub for tests.
package types

type Message struct {
	Body          *string
	MessageId     *string
	ReceiptHandle *string
	Attributes    map[string]string
}
