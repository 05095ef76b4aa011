package keymodel_test

import (
	"go/types"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

func TestDefaultModel(t *testing.T) {
	m := keymodel.Default()
	for _, tc := range []struct {
		pkg, recv, name, kind string
		fills                 int
	}{
		{"time", "", "Now", "clock", -1},
		{"crypto/rand", "", "Read", "random", 0},
		{"math/rand/v2", "", "IntN", "random", -1},
		{"math/rand", "Rand", "Intn", "random", -1},
		{"github.com/google/uuid", "", "NewString", "random", -1},
		{"github.com/oklog/ulid/v2", "", "Make", "random", -1},
	} {
		kind, fills, ok := m.Source(tc.pkg, tc.recv, tc.name)
		if !ok || kind != tc.kind || fills != tc.fills {
			t.Errorf("Source(%s.%s) = %q, %d, %v; want %q, %d", tc.pkg, tc.name, kind, fills, ok, tc.kind, tc.fills)
		}
	}
	for _, no := range [][3]string{
		{"time", "Time", "Now"},                         // not the clock: a method
		{"example.com/clock", "", "Now"},                // merely named Now
		{"go.temporal.io/sdk/workflow", "", "Now"},      // replay-stable
		{"github.com/oklog/ulid/v2", "ULID", "String"},  // a method of the value
		{"math/rand", "", "New"},                        // a generator, not a value
		{"github.com/google/uuid", "UUID", "NewString"}, // no such method: receiver matters
	} {
		if _, _, ok := m.Source(no[0], no[1], no[2]); ok {
			t.Errorf("Source(%v) is a source", no)
		}
	}
	if !m.Barrier("go.temporal.io/sdk/workflow", "", "Now") || !m.Barrier("go.temporal.io/sdk/workflow", "", "SideEffect") {
		t.Error("Temporal's replay-stable APIs are barriers")
	}
	if !m.Barrier("database/sql", "Row", "Scan") || m.Barrier("example.com/x", "", "Scan") {
		t.Error("Scan methods are barriers, a function named Scan is not")
	}
	for name, want := range map[string]string{"New": "create", "Capture": "capture", "Confirm": "confirm", "Pay": "pay", "Update": "update", "Del": "delete", "Cancel": "update", "List": "read"} {
		if kind, ok := m.Operation("github.com/stripe/stripe-go/v82/paymentintent", "", name); !ok || kind != want {
			t.Errorf("Operation(%s) = %q, want %q", name, kind, want)
		}
	}
	if keymodel.Acts("update") || keymodel.Acts("delete") || keymodel.Acts("capture") || keymodel.Acts("confirm") || keymodel.Acts("pay") || !keymodel.Acts("create") || !keymodel.Acts("refund") {
		t.Error("Acts")
	}
	if !m.SinkField("github.com/stripe/stripe-go/v82", "IdempotencyKey") || !m.SinkField("github.com/aws/aws-sdk-go-v2/service/ec2", "ClientToken") {
		t.Error("provider key fields")
	}
}

func TestHeaderSpellings(t *testing.T) {
	m := keymodel.Default()
	for _, h := range []string{"Idempotency-Key", "idempotency-key", "IDEMPOTENCY-KEY", "Idempotence-Key", "X-Idempotency-Key", "Cko-Idempotency-Key", "Idempotent-Key", "X-Idempotence-Key", "Idempotency-Token"} {
		if !m.IsHeader(h) {
			t.Errorf("%s is an idempotency header", h)
		}
	}
	for _, h := range []string{"X-Request-Id", "Idempotency-Replayed", "Content-Type"} {
		if m.IsHeader(h) {
			t.Errorf("%s is not an idempotency header", h)
		}
	}
}

func TestConfigExtends(t *testing.T) {
	c, err := config.Parse([]byte(`
sources: [{package: example.com/ids, function: Draw, kind: counter}]
barriers: [{package: example.com/store, function: Load.*}]
operations: [{package: example.com/pay, function: Settle, kind: charge}]
headers: [X-Op-Token]
key_name: opref
disable: [IDEM005]
`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := keymodel.New(c)
	if err != nil {
		t.Fatal(err)
	}
	if kind, _, ok := m.Source("example.com/ids", "", "Draw"); !ok || kind != "counter" {
		t.Error("configured source")
	}
	if !m.Barrier("example.com/store", "", "LoadIntent") {
		t.Error("configured barrier")
	}
	if kind, ok := m.Operation("example.com/pay", "", "Settle"); !ok || kind != "charge" {
		t.Error("configured operation")
	}
	if !m.IsHeader("x-op-token") || !m.IsHeader("Idempotency-Key") {
		t.Error("configured header extends the default")
	}
	if !m.IsKey("op_ref") || !m.IsKey("idempotencyKey") || !m.Disabled("IDEM005") {
		t.Error("key_name and disable")
	}
	if _, err := config.Parse([]byte("operations: [{package: x, function: y, kind: destroy}]\n")); err == nil {
		t.Error("unknown operation kind accepted")
	}
}

func TestFlag(t *testing.T) {
	defer func() { _ = keymodel.Analyzer.Flags.Set(config.FlagName, "") }()
	f := keymodel.Analyzer.Flags.Lookup(config.FlagName)
	if err := f.Value.Set(config.Encode([]byte("disable: [IDEM005]\n"))); err != nil {
		t.Fatal(err)
	}
	res, err := keymodel.Analyzer.Run(nil)
	if err != nil || !res.(*keymodel.Model).Disabled("IDEM005") {
		t.Fatalf("flag did not configure the model: %v", err)
	}
	if err := f.Value.Set(config.Encode([]byte("bogus: 1\n"))); err == nil {
		t.Fatal("bad config accepted through the flag")
	}
	if err := f.Value.Set("%%%"); err == nil {
		t.Fatal("non-base64 accepted")
	}
	if err := f.Value.Set(""); err != nil {
		t.Fatal(err)
	}
	if res, _ := keymodel.Analyzer.Run(nil); res.(*keymodel.Model) != keymodel.Default() {
		t.Error("an empty flag is the built-in model")
	}
}

// TestEntryOf: a parameter's type makes an entry: a listed delivery, a
// struct carrying the broker's redelivery metadata (an attempt source
// field, here configured), a request; a type merely named like one is not.
func TestEntryOf(t *testing.T) {
	c := &config.Config{Sources: []config.Pattern{{Package: "example.com/bus", Field: "DeliveryCount", Kind: "attempt"}}}
	if err := c.Compile(); err != nil {
		t.Fatal(err)
	}
	m, err := keymodel.New(c)
	if err != nil {
		t.Fatal(err)
	}
	named := func(pkg, name string, fields ...*types.Var) types.Type {
		p := types.NewPackage(pkg, "p")
		return types.NewNamed(types.NewTypeName(0, p, name, nil), types.NewStruct(fields, nil), nil)
	}
	busPkg := types.NewPackage("example.com/bus", "bus")
	for _, tc := range []struct {
		t    types.Type
		want keymodel.EntryKind
	}{
		{named("github.com/rabbitmq/amqp091-go", "Delivery"), keymodel.Redelivered},
		{types.NewPointer(named("github.com/nats-io/nats.go", "Msg")), keymodel.Redelivered},
		{named("example.com/bus", "Envelope", types.NewField(0, busPkg, "DeliveryCount", types.Typ[types.Int], false)), keymodel.Redelivered},
		{types.NewPointer(named("net/http", "Request")), keymodel.Request},
		{named("github.com/mark3labs/mcp-go/mcp", "CallToolRequest"), keymodel.Request},
		{types.NewPointer(named("github.com/modelcontextprotocol/go-sdk/mcp", "CallToolRequest")), keymodel.Request},
		{named("github.com/aws/aws-lambda-go/events", "EventBridgeEvent"), keymodel.Redelivered},
		{named("github.com/aws/aws-lambda-go/events", "APIGatewayV2HTTPRequest"), keymodel.Request},
		{types.NewPointer(named("connectrpc.com/connect", "Request")), keymodel.Request},
		{named("example.com/app", "Delivery"), keymodel.NotEntry},
		{types.Typ[types.String], keymodel.NotEntry},
	} {
		if got := m.EntryOf(tc.t); got != tc.want {
			t.Errorf("EntryOf(%v) = %v, want %v", tc.t, got, tc.want)
		}
	}
	if !m.VerifiesWebhook("github.com/stripe/stripe-go/v82/webhook", "", "ConstructEvent") || m.VerifiesWebhook("example.com/app", "", "ConstructEvent") {
		t.Error("VerifiesWebhook: want stripe-go's webhook.ConstructEvent only")
	}
}
