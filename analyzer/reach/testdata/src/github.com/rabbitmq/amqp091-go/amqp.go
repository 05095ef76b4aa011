// Package amqp091 is a minimal stub for tests.
package amqp091

type Delivery struct {
	MessageId   string
	DeliveryTag uint64
	Redelivered bool
	Body        []byte
}
