// Package pubsub is a minimal stub of cloud.google.com/go/pubsub for tests.
package pubsub

// Message is a received message; DeliveryAttempt is set by the service
// on each delivery.
type Message struct {
	ID              string
	Data            []byte
	DeliveryAttempt *int
}
