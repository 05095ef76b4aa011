// Package stripe is a test stub of github.com/stripe/stripe-go/v82.
package stripe

import "context"

type Params struct {
	Context        context.Context
	IdempotencyKey *string
	Metadata       map[string]string
}

func (p *Params) SetIdempotencyKey(val string)  { p.IdempotencyKey = &val }
func (p *Params) AddMetadata(key, value string) {}

func String(v string) *string { return &v }
func Int64(v int64) *int64    { return &v }

func NewIdempotencyKey() string { return "random" }

type PaymentIntentParams struct {
	Params   `form:"*"`
	Amount   *int64
	Currency *string
	Confirm  *bool
}

type PaymentIntentCreateParams struct {
	Params   `form:"*"`
	Amount   *int64
	Currency *string
	Confirm  *bool
}

type PaymentIntentConfirmParams struct {
	Params        `form:"*"`
	PaymentMethod *string
}

type PaymentIntentCancelParams struct {
	Params `form:"*"`
}

type RefundParams struct {
	Params        `form:"*"`
	PaymentIntent *string
	Amount        *int64
}

type ChargeParams struct {
	Params `form:"*"`
	Amount *int64
}

type PaymentIntent struct{ ID string }
type Refund struct{ ID string }
type Charge struct{ ID string }

type Client struct {
	V1PaymentIntents *v1PaymentIntentService
	V1Refunds        *v1RefundService
	V1Customers      *v1CustomerService
}

func NewClient(key string) *Client { return &Client{} }

type v1PaymentIntentService struct{}

func (s *v1PaymentIntentService) Create(ctx context.Context, params *PaymentIntentCreateParams) (*PaymentIntent, error) {
	return nil, nil
}
func (s *v1PaymentIntentService) Update(ctx context.Context, id string, params *PaymentIntentUpdateParams) (*PaymentIntent, error) {
	return nil, nil
}

type PaymentIntentUpdateParams struct {
	Params      `form:"*"`
	Description *string
}

type v1CustomerService struct{}

func (s *v1CustomerService) Delete(ctx context.Context, id string, params *CustomerDeleteParams) (*Customer, error) {
	return nil, nil
}

type Customer struct{ ID string }

type CustomerDeleteParams struct {
	Params `form:"*"`
}

func (s *v1PaymentIntentService) Retrieve(ctx context.Context, id string, params *PaymentIntentParams) (*PaymentIntent, error) {
	return nil, nil
}

type v1RefundService struct{}

func (s *v1RefundService) Create(ctx context.Context, params *RefundParams) (*Refund, error) {
	return nil, nil
}

type PaymentIntentCaptureParams struct {
	Params          `form:"*"`
	AmountToCapture *int64
}

type RefundCreateParams struct {
	Params        `form:"*"`
	PaymentIntent *string
	Amount        *int64
}

func (s *v1PaymentIntentService) Capture(ctx context.Context, id string, params *PaymentIntentCaptureParams) (*PaymentIntent, error) {
	return nil, nil
}
func (s *v1PaymentIntentService) Confirm(ctx context.Context, id string, params *PaymentIntentConfirmParams) (*PaymentIntent, error) {
	return nil, nil
}

type CheckoutSessionParams struct {
	Params     `form:"*"`
	SuccessURL *string
}
type CheckoutSession struct{ ID string }

type BillingPortalSessionParams struct {
	Params   `form:"*"`
	Customer *string
}
type BillingPortalSession struct{ ID string }

type WebhookEndpointParams struct {
	Params `form:"*"`
	URL    *string
}
type WebhookEndpoint struct{ ID string }

type AccountLinkParams struct {
	Params  `form:"*"`
	Account *string
}
type AccountLink struct{ URL string }

type InvoiceParams struct {
	Params   `form:"*"`
	Customer *string
}
type Invoice struct{ ID string }

type InvoiceItemParams struct {
	Params   `form:"*"`
	Customer *string
	Amount   *int64
}
type InvoiceItem struct{ ID string }

type TransferParams struct {
	Params      `form:"*"`
	Amount      *int64
	Destination *string
}
type Transfer struct{ ID string }

type PayoutParams struct {
	Params `form:"*"`
	Amount *int64
}
type Payout struct{ ID string }

func Bool(v bool) *bool { return &v }
