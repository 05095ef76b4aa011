// Package bus is a message bus client.
package bus

// Delivery is one delivery of a message. Ticket is assigned by the broker
// per delivery: a redelivered message gets a new one.
type Delivery struct {
	Ticket  string
	OrderID string
	Amount  int64
}
