#!/usr/bin/env bash
# heavy-service.sh DIR writes, in DIR, a small payment service whose go.mod
# pulls a heavy dependency tree from the module proxy: an ORM (gorm with
# its PostgreSQL driver), cloud SDKs (AWS SQS, S3 and DynamoDB, Google
# Cloud Pub/Sub), a workflow engine (Temporal), a payment SDK (stripe-go)
# and Redis. lint-vs-vet.sh times lint against go vet on it: almost all of
# its packages are dependencies, which is where lint used to lose time.
#
# The service has real idempotency keys, good and bad, so lint has work
# to do. Versions are pinned so every run measures the same code.
set -euo pipefail

dir=${1:?usage: heavy-service.sh DIR}
mkdir -p "$dir/payments" "$dir/workflows" "$dir/cmd/server"
cd "$dir"

cat >go.mod <<'EOF'
module example.com/heavy

go 1.24
EOF

cat >payments/payments.go <<'EOF'
// Package payments charges customers and records the attempts.
package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/redis/go-redis/v9"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
	"gorm.io/gorm"
)

// Intent is the frozen payment intent, stored before any effect.
type Intent struct {
	ID             string `gorm:"primaryKey"`
	TenantID       string
	OrderID        string
	AmountCents    int64
	IdempotencyKey string `gorm:"uniqueIndex"`
}

// Service charges through Stripe and talks to AWS and Redis.
type Service struct {
	DB     *gorm.DB
	Queue  *sqs.Client
	Blobs  *s3.Client
	Table  *dynamodb.Client
	Locks  *redis.Client
	Bucket string
}

// Charge derives the key from the frozen intent: stable across retries.
func (s *Service) Charge(ctx context.Context, in Intent) (*stripe.PaymentIntent, error) {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(in.AmountCents), Currency: stripe.String("usd")}
	params.SetIdempotencyKey("charge:" + in.TenantID + ":" + in.OrderID)
	return paymentintent.New(params)
}

// ChargeFromMessage handles a queue message and, wrongly, keys the charge
// on the receive time: every redelivery charges again.
func (s *Service) ChargeFromMessage(ctx context.Context, queueURL string) error {
	out, err := s.Queue.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(queueURL)})
	if err != nil {
		return err
	}
	for _, m := range out.Messages {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100), Currency: stripe.String("usd")}
		params.SetIdempotencyKey(fmt.Sprintf("%s-%d", aws.ToString(m.Body), time.Now().UnixNano()))
		if _, err := paymentintent.New(params); err != nil {
			return err
		}
	}
	return nil
}

// Record stores the intent, then locks it in Redis and DynamoDB.
func (s *Service) Record(ctx context.Context, in Intent) error {
	if err := s.DB.WithContext(ctx).Create(&in).Error; err != nil {
		return err
	}
	if err := s.Locks.SetNX(ctx, "lock:"+in.IdempotencyKey, 1, time.Minute).Err(); err != nil {
		return err
	}
	_, err := s.Table.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String("intents"),
		Item:      map[string]types.AttributeValue{"IdempotencyKey": &types.AttributeValueMemberS{Value: in.IdempotencyKey}},
	})
	return err
}

// Receipt uploads a receipt under a fresh object name.
func (s *Service) Receipt(ctx context.Context, in Intent, body []byte) error {
	_, err := s.Blobs.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(s.Bucket), Key: aws.String(in.ID + ".pdf")})
	return err
}
EOF

cat >workflows/workflows.go <<'EOF'
// Package workflows runs the payment as a Temporal workflow and publishes
// the outcome on Google Cloud Pub/Sub.
package workflows

import (
	"context"
	"fmt"
	"time"

	"cloud.google.com/go/pubsub"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/workflow"
)

// PaymentRequest is what the workflow charges.
type PaymentRequest struct {
	TenantID, OrderID string
	IdempotencyKey    string
}

// Pay is replay-stable: workflow.Now is recorded in the history.
func Pay(ctx workflow.Context, req PaymentRequest) error {
	req.IdempotencyKey = fmt.Sprintf("%s:%s:%d", req.TenantID, req.OrderID, workflow.Now(ctx).Unix())
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	return workflow.ExecuteActivity(ctx, Charge, req).Get(ctx, nil)
}

// Charge is the activity; a retried activity draws a new key (wrong).
func Charge(ctx context.Context, req PaymentRequest) error {
	info := activity.GetInfo(ctx)
	req.IdempotencyKey = fmt.Sprintf("%s-%d", req.OrderID, time.Now().UnixNano())
	_ = info
	return nil
}

// Publish announces a payment.
func Publish(ctx context.Context, t *pubsub.Topic, req PaymentRequest) error {
	_, err := t.Publish(ctx, &pubsub.Message{Data: []byte(req.OrderID), Attributes: map[string]string{"Idempotency-Key": req.IdempotencyKey}}).Get(ctx)
	return err
}

// Start starts the workflow with an ID derived from the order.
func Start(ctx context.Context, c client.Client, req PaymentRequest) error {
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "pay-" + req.OrderID, TaskQueue: "payments"}, Pay, req)
	return err
}
EOF

cat >cmd/server/main.go <<'EOF'
// Command server wires the payment service.
package main

import (
	"context"
	"log"

	"cloud.google.com/go/pubsub"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/redis/go-redis/v9"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"

	"example.com/heavy/payments"
	"example.com/heavy/workflows"
)

func main() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	db, err := gorm.Open(postgres.Open("postgres://localhost/pay"), &gorm.Config{})
	if err != nil {
		log.Fatal(err)
	}
	svc := &payments.Service{
		DB: db, Queue: sqs.NewFromConfig(cfg), Blobs: s3.NewFromConfig(cfg), Table: dynamodb.NewFromConfig(cfg),
		Locks: redis.NewClient(&redis.Options{Addr: "localhost:6379"}), Bucket: "receipts",
	}
	_ = svc
	ps, err := pubsub.NewClient(ctx, "project")
	if err != nil {
		log.Fatal(err)
	}
	defer ps.Close()
	c, err := client.Dial(client.Options{})
	if err != nil {
		log.Fatal(err)
	}
	w := worker.New(c, "payments", worker.Options{})
	w.RegisterWorkflow(workflows.Pay)
	w.RegisterActivity(workflows.Charge)
	log.Fatal(w.Run(worker.InterruptCh()))
}
EOF

go get \
	gorm.io/gorm@v1.31.2 \
	gorm.io/driver/postgres@v1.6.3 \
	github.com/aws/aws-sdk-go-v2@v1.48.0 \
	github.com/aws/aws-sdk-go-v2/config@v1.33.18 \
	github.com/aws/aws-sdk-go-v2/service/sqs@v1.53.0 \
	github.com/aws/aws-sdk-go-v2/service/s3@v1.114.10 \
	github.com/aws/aws-sdk-go-v2/service/dynamodb@v1.74.0 \
	cloud.google.com/go/pubsub@v1.52.0 \
	go.temporal.io/sdk@v1.51.0 \
	github.com/stripe/stripe-go/v82@v82.5.1 \
	github.com/redis/go-redis/v9@v9.23.0
go mod tidy
go build ./...
echo "$dir"
