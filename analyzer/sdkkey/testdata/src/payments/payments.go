// Package payments is a helper package: its facts reach sdkkey.
package payments

import (
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/refund"
)

// Refund sends params as given: whether they carry a key is the caller's job.
func Refund(params *stripe.RefundParams) error { // want Refund:`unkeyed stripe params \[0\] -> refund.New`
	_, err := refund.New(params)
	return err
}
