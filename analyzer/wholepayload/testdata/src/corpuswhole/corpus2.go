package corpuswhole

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

type Item struct {
	SKU   string
	Cents int64
}

// Clean: scalars, a time and a slice of strings.
func ScalarsKey(r *http.Request, orderID string, at time.Time, skus []string) {
	r.Header.Set("Idempotency-Key", fmt.Sprintf("%s|%v|%v", orderID, at.Unix(), skus))
}

// Positive: the line items serialized whole.
func ItemsKey(r *http.Request, orderID string, items []Item) {
	b, _ := json.Marshal(items) // want `whole`
	r.Header.Set("Idempotency-Key", orderID+string(b))
}
