// Package publish: a publish's dedup id is a key sink (issue 18, B).
package publish

import (
	"context"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Found: a fresh dedup id per attempt defeats JetStream's deduplication.
func emit(js nats.JetStreamContext, data []byte) error {
	_, err := js.Publish("orders", data, nats.MsgId(uuid.NewString())) // want `built from uuid\.NewString`
	return err
}

func emitOpt() jetstream.PublishOpt {
	return jetstream.WithMsgID(uuid.NewString()) // want `built from uuid\.NewString`
}

// Silent: the dedup id from the order.
func emitStable(js nats.JetStreamContext, orderID string, data []byte) error {
	_, err := js.Publish("orders", data, nats.MsgId("order-"+orderID))
	return err
}

// Found: the same id as JetStream's Nats-Msg-Id header.
func emitHeader(data []byte) *nats.Msg {
	m := &nats.Msg{Subject: "orders", Header: nats.Header{}, Data: data}
	m.Header.Set("Nats-Msg-Id", uuid.NewString()) // want `built from uuid\.NewString`
	return m
}

// Found: a job that enqueues the next step under a fresh task id; asynq
// retries the job, and the retry enqueues a second task.
func signTransfer(ctx context.Context, c *asynq.Client, t *asynq.Task) error {
	next := asynq.NewTask("dispatch", t.Payload(), asynq.Queue("tx"), asynq.TaskID(uuid.NewString())) // want `built from uuid\.NewString`
	_, err := c.EnqueueContext(ctx, next)
	return err
}

// Silent: the next step's id comes from the job's own payload.
func signTransferStable(ctx context.Context, c *asynq.Client, t *asynq.Task) error {
	next := asynq.NewTask("dispatch", t.Payload(), asynq.TaskID("dispatch:"+string(t.Payload())))
	_, err := c.EnqueueContext(ctx, next)
	return err
}
