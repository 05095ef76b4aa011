// want package:"analyzed"
// Package sources has one positive per per-attempt source kind.
package sources

import (
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"net/http"
	"strconv"
	"time"

	gofrs "github.com/gofrs/uuid"
	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
	stripe "github.com/stripe/stripe-go/v82"
)

func googleNew(req *http.Request) {
	req.Header.Set("Idempotency-Key", uuid.New().String()) // want `idempotency key built from uuid\.New \(random per attempt\); a redelivery computes a different key`
}

func googleNewString(req *http.Request) {
	key := uuid.NewString()
	req.Header.Set("Idempotency-Key", key) // want `built from uuid\.NewString \(random per attempt\);`
}

func googleNewRandomMust(req *http.Request) {
	req.Header.Add("idempotency-key", uuid.Must(uuid.NewRandom()).String()) // want `built from uuid\.NewRandom`
}

func googleNewV7(req *http.Request) {
	u, _ := uuid.NewV7()
	req.Header.Set("X-Idempotency-Key", u.String()) // want `built from uuid\.NewV7`
}

func gofrsV4(req *http.Request) {
	req.Header.Set("Idempotency-Key", gofrs.Must(gofrs.NewV4()).String()) // want `built from uuid\.NewV4`
}

func oklogULID(req *http.Request) {
	req.Header.Set("Idempotency-Key", ulid.Make().String()) // want `built from ulid\.Make`
}

func oklogMustNew(req *http.Request) {
	id := ulid.MustNew(ulid.Now(), crand.Reader)
	req.Header.Set("Idempotency-Key", id.String()) // want `built from ulid\.`
}

func rsXID(req *http.Request) {
	req.Header.Set("Idempotency-Key", "pay-"+xid.New().String()) // want `built from xid\.New`
}

func segmentKSUID(req *http.Request) {
	req.Header.Set("Idempotency-Key", ksuid.New().String()) // want `built from ksuid\.New`
}

func mathRand(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", orderID+"-"+strconv.Itoa(rand.Intn(1000))) // want `built from rand\.Intn \(random per attempt\)`
}

func mathRandV2(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", orderID, randv2.Int64())) // want `built from rand\.Int64`
}

func cryptoRandRead(req *http.Request) {
	buf := make([]byte, 16)
	crand.Read(buf)
	req.Header.Set("Idempotency-Key", hex.EncodeToString(buf)) // want `built from rand\.Read \(random per attempt\)`
}

func cryptoRandText(req *http.Request) {
	req.Header.Set("Idempotency-Key", crand.Text()) // want `built from rand\.Text`
}

func timeNow(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", orderID+"-"+time.Now().Format(time.RFC3339)) // want `built from time\.Now \(clock reading, differs per attempt\)`
}

func timeUnixNano(req *http.Request, orderID string) {
	ts := time.Now().UnixNano()
	key := orderID + ":" + strconv.FormatInt(ts, 10)
	req.Header.Set("Idempotency-Key", key) // want `built from time\.Now`
}

func stripeNewKey(params *stripe.PaymentIntentParams) {
	params.IdempotencyKey = stripe.String(stripe.NewIdempotencyKey()) // want `built from stripe\.NewIdempotencyKey`
}
