// Package resolvers: methods a framework's generated server calls for a
// request (a gqlgen resolver, a gRPC server's method) are routes, as an
// HTTP handler is: nothing repeats them. An exported method of the same
// package that no framework calls has callers out of view.
package resolvers

import (
	"context"

	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"

	"handlers/generated"
	"handlers/pb"
)

type Resolver struct{}

func (r *Resolver) Mutation() generated.MutationResolver { return &mutationResolver{r} }

type mutationResolver struct{ *Resolver }

// Silent: gqlgen calls it for a GraphQL request.
func (r *mutationResolver) BuyTicket(ctx context.Context, conference string) (string, error) {
	ch, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(5000)})
	if err != nil {
		return "", err
	}
	return ch.ID, nil
}

// Found: no framework calls it; its callers are out of view.
func (r *mutationResolver) BuyTicketLater(ctx context.Context, conference string) (string, error) {
	ch, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(5000)}) // want `charge.New is called without an idempotency key`
	if err != nil {
		return "", err
	}
	return ch.ID, nil
}

type PayoutsService struct{}

// Silent: the gRPC server calls it for a request.
func (PayoutsService) Payout(ctx context.Context, req *pb.PayoutRequest) (*pb.PayoutRequest, error) {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(req.Cents)})
	return req, err
}

// A client of the service, not its server: gRPC calls nothing here, and
// a caller out of view may retry it.
type chargingClient struct{}

var _ pb.PayoutsClient = chargingClient{}

func (chargingClient) Payout(ctx context.Context, req *pb.PayoutRequest, opts ...pb.CallOption) (*pb.PayoutRequest, error) {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(req.Cents)}) // want `charge.New is called without an idempotency key`
	return req, err
}
