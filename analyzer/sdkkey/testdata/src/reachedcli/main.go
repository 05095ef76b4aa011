// Command reachedcli: a keyless charge reached only from main runs once
// per invocation of the command; nothing redelivers it (issue 18).
package main

import (
	"os"
	"strconv"

	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"
)

func main() {
	cents, _ := strconv.ParseInt(os.Args[1], 10, 64)
	if err := run(cents); err != nil || retrying(cents) != nil {
		os.Exit(1)
	}
}

// Silent: reached from main only.
func run(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)})
	return err
}

// Found: the command retries the call itself.
func retrying(cents int64) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)}); err == nil { // want `charge.New is called without an idempotency key`
			return nil
		}
	}
	return err
}
