// Package effect: IDEM002 judged by effect (issue 18). Creates that move
// money or bill (charges, payment intents, transfers, payouts, refunds,
// invoices, invoice items) are reported without a key; ephemeral or
// harmless creates are not.
package effect

import (
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/accountlink"
	portal "github.com/stripe/stripe-go/v82/billingportal/session"
	checkout "github.com/stripe/stripe-go/v82/checkout/session"
	"github.com/stripe/stripe-go/v82/invoice"
	"github.com/stripe/stripe-go/v82/invoiceitem"
	"github.com/stripe/stripe-go/v82/payout"
	"github.com/stripe/stripe-go/v82/transfer"
	"github.com/stripe/stripe-go/v82/webhookendpoint"
)

// Silent: a checkout session, a portal session, a webhook endpoint and an
// account link move no money; a repeat leaves one more unused link.
func links(customer, account string) {
	checkout.New(&stripe.CheckoutSessionParams{SuccessURL: stripe.String("https://example.com/ok")})
	portal.New(&stripe.BillingPortalSessionParams{Customer: stripe.String(customer)})
	webhookendpoint.New(&stripe.WebhookEndpointParams{URL: stripe.String("https://example.com/hook")})
	accountlink.New(&stripe.AccountLinkParams{Account: stripe.String(account)})
}

// Reported: the same form, for creates that bill or move money.
func bill(customer, account string, cents int64) {
	invoice.New(&stripe.InvoiceParams{Customer: stripe.String(customer)})                                      // want `invoice.New is called without an idempotency key`
	invoiceitem.New(&stripe.InvoiceItemParams{Customer: stripe.String(customer), Amount: stripe.Int64(cents)}) // want `invoiceitem.New is called without an idempotency key`
	transfer.New(&stripe.TransferParams{Amount: stripe.Int64(cents), Destination: stripe.String(account)})     // want `transfer.New is called without an idempotency key`
	payout.New(&stripe.PayoutParams{Amount: stripe.Int64(cents)})                                              // want `payout.New is called without an idempotency key`
}
