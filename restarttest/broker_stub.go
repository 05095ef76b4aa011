package restarttest

import "context"

// Broker delivery lands next; until then a broker URL is refused plainly.
func openAMQP(context.Context, *harness) (transport, error) {
	return nil, envErrorf("--deliver amqp:// is not available in this build yet")
}

func openNATS(context.Context, *harness) (transport, error) {
	return nil, envErrorf("--deliver nats:// is not available in this build yet")
}
