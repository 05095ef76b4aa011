package entries

import (
	"errors"
	"net/http"

	amqp "github.com/rabbitmq/amqp091-go"
)

func Consume(d amqp.Delivery) { handle(d.Body) } // want `via redelivery$`

func Route(w http.ResponseWriter, r *http.Request) { handle(nil); routeOnly() } // want `via request$`

func handle(b []byte) {} // want `via redelivery,request$`

func routeOnly() {} // want `via request$`

func Exported() { retried() } // want `via outofview$`

func retried() error { return nil } // want `via outofview$`

func dead() {} // want `via outofview$`

func loop() error { // want `via outofview$`
	var err error
	for i := 0; i < 3; i++ {
		if err = step(); err == nil { // want `retried`
			return nil
		}
	}
	return err
}

func step() error { return errors.New("x") } // want `via outofview,retry$`

// A loop over items that stops at the first failure is no retry.
func perItem(items []string) error { // want `via outofview$`
	for range items {
		if err := item(); err != nil {
			return err
		}
	}
	return nil
}

func item() error { return nil } // want `via outofview$`

// A handler handed to the server is entered as a route, not out of view.
func Serve() { http.HandleFunc("/", Route) } // want `via outofview$`

// A generated server's handler (go-swagger): its parameters hold the
// incoming request, so it answers one.
type PostRefundParams struct {
	HTTPRequest *http.Request
	RefundID    string
}

func PostRefundHandler(params PostRefundParams, principal any) { routeOnlyToo() } // want `via request$`

func routeOnlyToo() {} // want `via request$`

// A struct that holds a value, not a request, makes no entry.
type Job struct{ ID string }

func RunJob(j Job) {} // want `via outofview$`
