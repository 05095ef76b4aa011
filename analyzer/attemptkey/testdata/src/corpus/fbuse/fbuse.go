// Package fbuse calls fbsvc's fallbacks from a consumer: a call that
// hands in the message's key is silent, one that leaves it out is
// reported at the call.
package fbuse

import (
	"context"
	"encoding/json"

	amqp "github.com/rabbitmq/amqp091-go"

	"corpus/fbsvc"
)

type order struct {
	ID    string `json:"id"`
	Cents int64  `json:"cents"`
}

func OnOrder(ctx context.Context, svc *fbsvc.Service, d amqp.Delivery) error {
	var o order
	if err := json.Unmarshal(d.Body, &o); err != nil {
		return err
	}
	if err := svc.Initiate(ctx, fbsvc.Input{Cents: o.Cents, IdempotencyKey: "order-" + o.ID}); err != nil {
		return err
	}
	return fbsvc.Charge(ctx, o.Cents, "fee-"+o.ID)
}

func OnOrderNoKey(ctx context.Context, svc *fbsvc.Service, d amqp.Delivery) error {
	var o order
	if err := json.Unmarshal(d.Body, &o); err != nil {
		return err
	}
	if err := svc.Initiate(ctx, fbsvc.Input{Cents: o.Cents}); err != nil { // want `built from uuid\.NewString`
		return err
	}
	return fbsvc.Charge(ctx, o.Cents, "") // want `built from uuid\.NewString`
}

func OnRefund(ctx context.Context, d amqp.Delivery) error {
	var o order
	if err := json.Unmarshal(d.Body, &o); err != nil {
		return err
	}
	if err := fbsvc.Refund(ctx, o.Cents, "refund-"+o.ID); err != nil {
		return err
	}
	return fbsvc.Refund(ctx, o.Cents, "") // want `built from uuid\.NewString`
}
