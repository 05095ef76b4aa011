package keymodel

import (
	"go/types"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/config"
)

// Entries: how the outside world calls a function, which decides whether
// an invocation can be repeated with the same input. A broker redelivers
// a message until it is acknowledged, a job queue retries a job, a
// webhook sender retries until it gets a 2xx: code reached from such an
// entry runs again for the same intent, so a key drawn per invocation
// differs on the repeat. An HTTP route or a command line is not
// redelivered by anything the process can see.
//
// A function is an entry of a kind by the type of a parameter it takes
// (the delivery it handles), and a route that verifies a webhook
// signature receives a webhook. Types whose fields the model lists as
// broker-set redelivery metadata (Sources of kind attempt) are deliveries
// too, so a configured attempt field extends this list.

// EntryKind says how a function is entered.
type EntryKind int

const (
	NotEntry    EntryKind = iota
	Redelivered           // a broker delivery, a queued job, a webhook
	Request               // an HTTP request, a command line: not redelivered
)

// entryType is a parameter type that makes a function an entry.
type entryType struct {
	pkg  string // import path; a trailing "/..." includes sub-packages
	name string // the type's name
	kind EntryKind
}

var entryTypes = []entryType{
	{"github.com/rabbitmq/amqp091-go", "Delivery", Redelivered},
	{"github.com/streadway/amqp", "Delivery", Redelivered},
	{"github.com/nats-io/nats.go", "Msg", Redelivered},
	{"github.com/nats-io/nats.go/jetstream", "Msg", Redelivered},
	{"github.com/aws/aws-sdk-go-v2/service/sqs/types", "Message", Redelivered},
	{"github.com/aws/aws-sdk-go/service/sqs", "Message", Redelivered},
	{"github.com/aws/aws-lambda-go/events", "SQSMessage", Redelivered},
	{"github.com/aws/aws-lambda-go/events", "SQSEvent", Redelivered},
	// Lambda's asynchronous and stream events: the service retries a
	// failed invocation with the same event.
	{"github.com/aws/aws-lambda-go/events", "SNSEvent", Redelivered},
	{"github.com/aws/aws-lambda-go/events", "EventBridgeEvent", Redelivered},
	{"github.com/aws/aws-lambda-go/events", "CloudWatchEvent", Redelivered},
	{"github.com/aws/aws-lambda-go/events", "KinesisEvent", Redelivered},
	{"github.com/aws/aws-lambda-go/events", "DynamoDBEvent", Redelivered},
	{"github.com/aws/aws-lambda-go/events", "S3Event", Redelivered},
	{"cloud.google.com/go/pubsub/...", "Message", Redelivered},
	{"github.com/segmentio/kafka-go", "Message", Redelivered},
	{"github.com/confluentinc/confluent-kafka-go/...", "Message", Redelivered},
	{"github.com/IBM/sarama", "ConsumerMessage", Redelivered},
	{"github.com/Shopify/sarama", "ConsumerMessage", Redelivered},
	{"github.com/twmb/franz-go/pkg/kgo", "Record", Redelivered},
	{"github.com/ThreeDotsLabs/watermill/message", "Message", Redelivered},
	{"github.com/riverqueue/river", "Job", Redelivered},
	{"github.com/hibiken/asynq", "Task", Redelivered},
	{"github.com/redis/go-redis/...", "XMessage", Redelivered},

	{"net/http", "Request", Request},
	{"github.com/aws/aws-lambda-go/events", "APIGatewayProxyRequest", Request},
	{"github.com/aws/aws-lambda-go/events", "APIGatewayV2HTTPRequest", Request},
	{"github.com/aws/aws-lambda-go/events", "ALBTargetGroupRequest", Request},
	{"github.com/aws/aws-lambda-go/events", "LambdaFunctionURLRequest", Request},
	{"connectrpc.com/connect", "Request", Request},
	{"github.com/bufbuild/connect-go", "Request", Request},
	{"github.com/gin-gonic/gin", "Context", Request},
	{"github.com/labstack/echo/...", "Context", Request},
	{"github.com/gofiber/fiber/...", "Ctx", Request},
	{"github.com/spf13/cobra", "Command", Request},
	{"github.com/urfave/cli/...", "Context", Request},
	{"github.com/urfave/cli/...", "Command", Request},
	// An MCP tool call is a request its client (a model) waits on, as
	// an HTTP route's; nothing redelivers it.
	{"github.com/mark3labs/mcp-go/mcp", "CallToolRequest", Request},
	{"github.com/modelcontextprotocol/go-sdk/mcp", "CallToolRequest", Request},
}

// HandlerInterfaces returns the interfaces that the generated code of a
// request framework, in pkg or a package it imports, dispatches requests
// to: a gRPC service's XServer (registered by RegisterXServer), a Twirp
// service (served by NewXServer), and gqlgen's resolver interfaces (named
// …Resolver or ResolverRoot, in a package importing gqlgen's runtime).
// Their implementations' methods answer the framework's requests. A
// client interface (XClient, Twirp's HTTPClient) or an interface the
// project declares beside them is none.
func HandlerInterfaces(pkg *types.Package) []*types.Interface {
	var out []*types.Interface
	for _, p := range append([]*types.Package{pkg}, pkg.Imports()...) {
		gqlgen := importsPath(p, "github.com/99designs/gqlgen/graphql")
		if !gqlgen && !importsPath(p, "google.golang.org/grpc") && !importsPath(p, "github.com/twitchtv/twirp") {
			continue
		}
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() {
				continue
			}
			it, ok := tn.Type().Underlying().(*types.Interface)
			if !ok || it.NumMethods() == 0 {
				continue
			}
			dispatched := scope.Lookup("Register"+name) != nil || scope.Lookup("New"+name+"Server") != nil ||
				gqlgen && (strings.HasSuffix(name, "Resolver") || name == "ResolverRoot")
			if dispatched {
				out = append(out, it)
			}
		}
	}
	return out
}

func importsPath(p *types.Package, path string) bool {
	for _, im := range p.Imports() {
		if im.Path() == path {
			return true
		}
	}
	return false
}

// webhookVerifiers check a webhook's signature: the route calling one
// receives a webhook, which its sender retries until acknowledged.
var webhookVerifiers = []config.Pattern{
	{Package: "github.com/stripe/stripe-go/*/webhook", Function: "ConstructEvent.*|ValidatePayload.*"},
	{Package: "github.com/svix/svix-webhooks/go", Function: "Verify.*"},
	{Package: "github.com/standard-webhooks/standard-webhooks/libraries/go", Function: "Verify.*"},
	{Package: "github.com/google/go-github/...", Function: "ValidatePayload.*|ValidateSignature", Receiver: "-"},
	{Package: "github.com/go-playground/webhooks/...", Function: "Parse"},
}

var compiledVerifiers = func() []config.Pattern {
	ps := append([]config.Pattern(nil), webhookVerifiers...)
	for i := range ps {
		if err := ps[i].Compile(); err != nil {
			panic(err)
		}
	}
	return ps
}()

// EntryOf says what kind of entry a function taking a parameter of type t
// is, by the type (through pointers, slices and type arguments).
func (m *Model) EntryOf(t types.Type) EntryKind {
	return m.entryOf(t, 0)
}

func (m *Model) entryOf(t types.Type, depth int) EntryKind {
	if depth > 4 {
		return NotEntry
	}
	switch u := types.Unalias(t).(type) {
	case *types.Pointer:
		return m.entryOf(u.Elem(), depth+1)
	case *types.Slice:
		return m.entryOf(u.Elem(), depth+1)
	case *types.Named:
		obj := u.Obj()
		if obj.Pkg() == nil {
			return NotEntry
		}
		path := obj.Pkg().Path()
		for _, e := range entryTypes {
			if e.name == obj.Name() && matchPackage(e.pkg, path) {
				return e.kind
			}
		}
		if m.carriesRedelivery(u) {
			return Redelivered
		}
		if carriesRequest(u) {
			return Request
		}
	}
	return NotEntry
}

// carriesRequest reports a struct that holds the incoming HTTP request as
// a field: the parameters a generated server binds for its handler
// (go-swagger's XParams{HTTPRequest *http.Request}), so the function taking
// it answers a request.
func carriesRequest(n *types.Named) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		p, ok := st.Field(i).Type().(*types.Pointer)
		if !ok {
			continue
		}
		if r, ok := types.Unalias(p.Elem()).(*types.Named); ok && r.Obj().Pkg() != nil && r.Obj().Pkg().Path() == "net/http" && r.Obj().Name() == "Request" {
			return true
		}
	}
	return false
}

// carriesRedelivery reports a struct with a field (own or embedded) the
// model lists as redelivery metadata the broker sets.
func (m *Model) carriesRedelivery(n *types.Named) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if kind, ok := m.SourceField(n.Obj().Pkg().Path(), f.Name()); ok && kind == "attempt" {
			return true
		}
		if f.Embedded() {
			t := f.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if en, ok := types.Unalias(t).(*types.Named); ok && en != n && m.carriesRedelivery(en) {
				return true
			}
		}
	}
	return false
}

// VerifiesWebhook reports calls that check a webhook's signature.
func (m *Model) VerifiesWebhook(pkg, recv, name string) bool {
	for _, p := range compiledVerifiers {
		if p.MatchMethod(pkg, recv, name) {
			return true
		}
	}
	return false
}

func matchPackage(pattern, path string) bool {
	if len(pattern) > 4 && pattern[len(pattern)-4:] == "/..." {
		base := pattern[:len(pattern)-4]
		return path == base || len(path) > len(base) && path[:len(base)+1] == base+"/"
	}
	return pattern == path
}
