package derive_test

import (
	"fmt"

	"github.com/idemcheck/idemcheck/derive"
)

func ExampleSchema_Derive() {
	res, err := derive.DefaultSchema().Derive([]byte("secret"), derive.Intent{
		Tenant:  "acme",
		Action:  "pix.cobranca",
		Payload: []byte(`{"cliente_id": 42, "valor": 10.5, "chave_pix_destino": " José@Ex.com ", "referencia_intencao": "NF-1", "updated_at": "2026-11-03"}`),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res.Canonical))
	fmt.Println(res.Ignored)
	// Output:
	// {"a":"pix.cobranca","p":{"chave_pix_destino":"josé@ex.com","cliente_id":"42","referencia_intencao":"NF-1","valor":"1050"},"t":"acme","v":1}
	// [updated_at]
}

func ExampleSchema_Derive_refused() {
	_, err := derive.DefaultSchema().Derive([]byte("secret"), derive.Intent{
		Tenant:  "acme",
		Action:  "pix.cobranca",
		Payload: []byte(`{"cliente_id": 42, "valor": 10.005, "chave_pix_destino": "k", "referencia_intencao": "NF-1"}`),
	})
	fmt.Println(err)
	// Output:
	// field "valor" (cents): amount "10.005" has a fraction of a cent; refusing to round money
}
