package app

import (
	"net/http"

	"callbacks/tx"
)

var store = tx.New()

func pay(w http.ResponseWriter, r *http.Request) { // want "^via request$"
	args := tx.Args{OrderID: "o1"}
	args.Pay = func(id string) error { return nil } // want "^lit via request$"
	_ = store.CheckoutTx(args)
	_ = store.CheckoutTx(tx.Args{Pay: func(id string) error { return nil }}) // want "^lit via request$"
	_ = store.Do(func() error { return nil })                                // want "^lit via request,retry$"
	tx.Register(func() {})                                                   // want "^lit via request,outofview$"
	tx.Spawn(func() {})                                                      // want "^lit via request,outofview$"
	tx.Later(func() {})                                                      // want "^lit via request,outofview$"
	tx.Keep(tx.Args{Pay: func(string) error { return nil }})                 // want "^lit via request,outofview$"
}
