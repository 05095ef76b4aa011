// want package:"analyzed"
// Package closures tracks values captured by function literals.
package closures

import (
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	amqp "github.com/rabbitmq/amqp091-go"
)

func retry(n int, f func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

// A random key drawn once per call and reused by the call's own retry loop
// is still per attempt when the call handles a delivery: on a redelivery,
// the call is the attempt.
func drawnOncePerCall(client *http.Client, d amqp.Delivery, url string) error {
	key := uuid.NewString()
	return retry(3, func() error {
		req, _ := http.NewRequest("POST", url, nil)
		req.Header.Set("Idempotency-Key", key) // want `built from uuid\.NewString`
		_, err := client.Do(req)
		return err
	})
}

// Drawn inside the closure.
func drawnInside(client *http.Client, url string) error {
	return retry(3, func() error {
		req, _ := http.NewRequest("POST", url, nil)
		req.Header.Set("Idempotency-Key", fmt.Sprint(time.Now().UnixNano())) // want `built from time\.Now`
		_, err := client.Do(req)
		return err
	})
}

// A captured variable assigned inside the closure and used outside.
func assignedInside(req *http.Request) {
	var key string
	gen := func() { key = uuid.NewString() }
	gen()
	req.Header.Set("Idempotency-Key", key) // want `built from uuid\.NewString`
}

// A closure value returning a per-attempt value.
func closureResult(req *http.Request) {
	mk := func() string { return "k-" + uuid.NewString() }
	req.Header.Set("Idempotency-Key", mk()) // want `built from uuid\.NewString`
}

// The stable key is captured; only the attempt number is per attempt and
// it goes to a log header.
func stableCaptured(client *http.Client, url, orderID string) error {
	key := "order:" + orderID
	attempt := 0
	return retry(3, func() error {
		attempt++
		req, _ := http.NewRequest("POST", url, nil)
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("X-Attempt", fmt.Sprint(attempt))
		_, err := client.Do(req)
		return err
	})
}
