// Package nats is a minimal stub of github.com/nats-io/nats.go for tests.
package nats

type PubOpt interface{}

type msgID string

// MsgId sets JetStream's deduplication id of a published message.
func MsgId(id string) PubOpt { return msgID(id) }

type JetStreamContext interface {
	Publish(subj string, data []byte, opts ...PubOpt) (any, error)
}

type Header map[string][]string

func (h Header) Set(key, value string) {}

type Msg struct {
	Subject string
	Header  Header
	Data    []byte
}
