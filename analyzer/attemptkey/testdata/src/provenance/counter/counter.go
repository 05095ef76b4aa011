// Package counter: shape 1 of issue 18. A counter carried in the message
// is as stable as the message; a counter this process draws per attempt
// is not. Names are never evidence.
package counter

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	amqp "github.com/rabbitmq/amqp091-go"
)

type Task struct {
	EventID string
	Dest    string
	Attempt int // set by the sender; a redelivery carries the same value
}

// Silent: Attempt is decoded from the body, so every redelivery of this
// message computes the same key.
func deliver(ctx context.Context, msg amqp.Delivery, req *http.Request) error {
	var t Task
	if err := json.Unmarshal(msg.Body, &t); err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", t.EventID+":"+t.Dest+":"+strconv.Itoa(t.Attempt))
	return nil
}

// Found: the broker's redelivered flag, read from the envelope.
func deliverFlag(msg amqp.Delivery, req *http.Request) {
	var t Task
	_ = json.Unmarshal(msg.Body, &t)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s:%t", t.EventID, msg.Redelivered)) // want `built from field Redelivered`
}

// Silent: a struct parameter whose field is named like a counter says
// nothing about where its value comes from.
func fromParam(j Task, req *http.Request) {
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", j.EventID, j.Attempt))
}

// Found: a counter this process increments in its retry loop, whatever
// its name.
func retryLoop(req *http.Request, orderID string) {
	for n := 0; n < 3; n++ {
		req.Header.Set("Idempotency-Key", fmt.Sprintf("%s/%d", orderID, n)) // want `built from variable n \(counter`
		if _, err := http.DefaultClient.Do(req); err == nil {
			return
		}
	}
}

// Silent: the index of a line item is part of the message's structure.
func perItem(req *http.Request, orderID string, items []string) {
	for i := range items {
		req.Header.Set("Idempotency-Key", fmt.Sprintf("%s/%d", orderID, i))
	}
}

// Silent: a function named like an attempt accessor is not a source.
func CurrentAttempt(t Task) int { return t.Attempt }

func viaAccessor(t Task, req *http.Request) {
	req.Header.Set("Idempotency-Key", t.EventID+strconv.Itoa(CurrentAttempt(t)))
}

// Silent: the transport message id keeps its semantics as a stable id on
// redelivery — here it goes to an inbound dedup table.
// Found: the delivery tag is set by the broker per delivery.
func tag(msg amqp.Delivery, req *http.Request) {
	req.Header.Set("Idempotency-Key", fmt.Sprintf("tag-%d", msg.DeliveryTag)) // want `built from field DeliveryTag`
}
