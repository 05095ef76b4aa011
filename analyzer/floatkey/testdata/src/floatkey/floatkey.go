package floatkey

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"math"
	"net/http"
	"strconv"
)

type Order struct {
	ID         string
	Total      float64
	TotalCents int64
}

var secret = []byte("s")

func sprintfKey(o Order, req *http.Request) {
	key := fmt.Sprintf("%s:%.2f", o.ID, o.Total) // want `float64 value o.Total reaches the idempotency key`
	req.Header.Set("Idempotency-Key", key)
}

func headerDirect(o Order, req *http.Request) {
	req.Header.Set("Idempotency-Key", o.ID+strconv.FormatFloat(o.Total, 'f', 2, 64)) // want `float64 value o.Total reaches`
}

func throughLocals(o Order) string {
	amount := o.Total * 1.1
	s := fmt.Sprint(amount) // want `float64 value amount reaches`
	idemKey := o.ID + "|" + s
	return idemKey
}

// idempotencyKey is named like a key, so its result is the key.
func idempotencyKey(id string, amount float64) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(id))
	binary.Write(mac, binary.BigEndian, amount) // want `float64 value amount reaches`
	return hex.EncodeToString(mac.Sum(nil))
}

type keyInput struct {
	OrderID string  `json:"order_id"`
	Amount  float32 `json:"amount"`
}

func dedupKey(in keyInput) string {
	b, _ := json.Marshal(in) // want `float field Amount, serialized by json.Marshal, reaches the idempotency key`
	mac := hmac.New(sha256.New, secret)
	mac.Write(b)
	return hex.EncodeToString(mac.Sum(nil))
}

func literalField(o Order) string {
	b, _ := json.Marshal(keyInput{OrderID: o.ID, Amount: float32(o.Total)}) // want `float32 value float32\(o.Total\) reaches`
	idemKey := string(b)
	return idemKey
}

type Params struct {
	IdempotencyKey *string
}

func intoField(o Order) *Params {
	k := fmt.Sprintf("%v-%v", o.ID, o.Total) // want `float64 value o.Total reaches`
	return &Params{IdempotencyKey: &k}
}

func charge(amountCents int64, idempotencyKey string) {}

func viaParam(o Order) {
	charge(o.TotalCents, o.ID+fmt.Sprint(o.Total)) // want `float64 value o.Total reaches`
}

// ---- negatives ----

func integerCents(o Order, req *http.Request) {
	key := fmt.Sprintf("%s:%d", o.ID, o.TotalCents)
	req.Header.Set("Idempotency-Key", key)
}

func roundedToCents(o Order, req *http.Request) {
	cents := int64(math.Round(o.Total * 100))
	key := fmt.Sprintf("%s:%d", o.ID, cents)
	req.Header.Set("Idempotency-Key", key)
}

func display(o Order, req *http.Request) {
	key := "order:" + o.ID
	log.Printf("charging %.2f with key %s", o.Total, key)
	label := fmt.Sprintf("R$ %.2f", o.Total)
	req.Header.Set("Idempotency-Key", key)
	req.Header.Set("X-Display-Amount", label)
}

func siblingField(o Order) *Params {
	p := Order{ID: o.ID, Total: o.Total}
	k := "k:" + p.ID
	return &Params{IdempotencyKey: &k}
}

func otherHeader(o Order, req *http.Request) {
	req.Header.Set("X-Amount", fmt.Sprint(o.Total))
}

func constantFloat(o Order) string {
	const version = 1.0
	idemKey := fmt.Sprintf("%s:v%.1f", o.ID, version)
	return idemKey
}

func cacheKey(o Order) string {
	return fmt.Sprintf("%s:%f", o.ID, o.Total)
}

// sendCharge puts its key parameter into the header: callers' arguments
// become keys.
func sendCharge(req *http.Request, key string) {
	req.Header.Set("Idempotency-Key", key)
}

func viaHelper(o Order, req *http.Request) {
	sendCharge(req, fmt.Sprintf("%s/%g", o.ID, o.Total)) // want `float64 value o.Total reaches`
}

func viaHelperClean(o Order, req *http.Request) {
	sendCharge(req, fmt.Sprintf("%s/%d", o.ID, o.TotalCents))
	fmt.Println(o.Total)
}

func suppressed(o Order) string {
	//idemcheck:ignore IDEM003 amounts are whole reais, exact in a float64
	idemKey := fmt.Sprintf("%s:%.0f", o.ID, o.Total)
	return idemKey
}

func suppressedOtherRule(o Order) string {
	idemKey := fmt.Sprintf("%s:%.0f", o.ID, o.Total) //idemcheck:ignore IDEM001 wrong rule // want `float64 value o.Total reaches`
	return idemKey
}

func noReason(o Order) string {
	//idemcheck:ignore IDEM003
	idemKey := fmt.Sprintf("%s:%.0f", o.ID, o.Total) // want `float64 value o.Total reaches`
	return idemKey
}

// A whole Order (with its float Total) in the key is IDEM004's finding.
func wholeOrder(o Order) string {
	b, _ := json.Marshal(o)
	idemKey := string(b)
	return idemKey
}

// amountPart reads the float itself: its callers' keys carry a float.
func amountPart(o Order) string {
	return strconv.FormatFloat(o.Total, 'f', 2, 64)
}

// centsPart is clean.
func centsPart(o Order) string {
	return strconv.FormatInt(o.TotalCents, 10)
}

// formatAmount formats a float given by the caller: reported at the
// caller's argument, not at the call.
func formatAmount(a float64) string {
	return strconv.FormatFloat(a, 'f', 2, 64)
}

func viaFloatHelper(o Order, req *http.Request) {
	req.Header.Set("Idempotency-Key", o.ID+amountPart(o)) // want `float64 value o.Total \(through amountPart\) reaches`
}

func viaCleanHelper(o Order, req *http.Request) {
	req.Header.Set("Idempotency-Key", o.ID+centsPart(o))
	req.Header.Set("X-Amount", amountPart(o))
}

func viaParamHelper(o Order, req *http.Request) {
	req.Header.Set("Idempotency-Key", o.ID+formatAmount(o.Total)) // want `float64 value o.Total reaches`
}

type node struct {
	Next  *node
	Label string
	Value float64
}

// A linked-list walk must not grow field paths forever.
func linked(n *node) string {
	cur := &node{Next: n}
	for cur.Next != nil {
		cur = cur.Next
	}
	idemKey := cur.Label + cur.Next.Label
	return idemKey
}

// firstString formats whatever kind of value decoded JSON holds: a float
// is one of the kinds it accepts, not a float the key is made of.
func firstString(in map[string]any, name string) string {
	switch t := in[name].(type) {
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	}
	return ""
}

func clientKey(in map[string]any, req *http.Request) {
	req.Header.Set("Idempotency-Key", firstString(in, "idempotencyKey"))
}

// An amount asserted to be a float is one.
func assertedAmount(in map[string]any, req *http.Request) {
	req.Header.Set("Idempotency-Key", fmt.Sprint(in["order"], in["amount"].(float64))) // want `float64 value in\["amount"\].\(float64\) reaches`
}
