// Package tx takes callbacks: a transaction helper calls them in place, a
// retry helper retries them, and others keep them or run them later.
package tx

type Args struct {
	OrderID string
	Pay     func(id string) error
}

type Store interface {
	CheckoutTx(args Args) error
	Do(fn func() error) error
}

type pg struct{}

func New() Store { return &pg{} }

func (p *pg) execTx(fn func() error) error { return fn() }

// CheckoutTx calls args.Pay once, inside execTx's callback.
func (p *pg) CheckoutTx(args Args) error {
	return p.execTx(func() error {
		if args.Pay != nil {
			return args.Pay(args.OrderID)
		}
		return nil
	})
}

// Do retries fn until it succeeds.
func (p *pg) Do(fn func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

var hooks []func()

// Register keeps fn, for whoever runs the hooks.
func Register(fn func()) { hooks = append(hooks, fn) }

// Spawn runs fn in a goroutine.
func Spawn(fn func()) { go fn() }

// Later hands fn to a goroutine's closure.
func Later(fn func()) {
	go func() { fn() }()
}

// Keep stores the callback of its args.
func Keep(args Args) { saved = args.Pay }

var saved func(string) error
