package attemptkey

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

// Source kinds, as they appear in messages.
const (
	kindRandom     = "random per attempt"
	kindClock      = "clock reading, differs per attempt"
	kindIdentity   = "transport message id, changes when the message is re-sent"
	kindRequest    = "request identity, new per request"
	kindAttempt    = "attempt counter, changes per retry"
	kindModel      = "model output, differs per call"
	kindCounter    = "counter, differs per call"
	kindConfigured = "configured as per-attempt"
)

// llmPackages are path prefixes of LLM client libraries whose responses are
// model output.
var llmPackages = []string{
	"github.com/openai/openai-go",
	"github.com/sashabaranov/go-openai",
	"github.com/anthropics/anthropic-sdk-go",
	"github.com/liushuangls/go-anthropic",
	"github.com/tmc/langchaingo",
	"google.golang.org/genai",
	"github.com/google/generative-ai-go",
	"github.com/cohere-ai/cohere-go",
	"github.com/ollama/ollama/api",
	"github.com/mistralai",
	"github.com/firebase/genkit/go",
	"github.com/cloudwego/eino",
}

// callee describes the function a call reaches, statically or by interface.
type callee struct {
	fn       *types.Func // nil for calls of function values
	pkg      string      // package path of fn
	pkgName  string      // package name of fn
	name     string      // function or method name
	recv     string      // receiver type name (without pointer), "" for functions
	iface    bool        // invoke through an interface
	ssa      *ssa.Function
	sig      *types.Signature
	builtin  string
	argTypes []types.Type
}

func describeCallee(c *ssa.CallCommon) callee {
	var out callee
	out.sig = c.Signature()
	if c.IsInvoke() {
		out.fn = c.Method
		out.iface = true
	} else {
		switch v := c.Value.(type) {
		case *ssa.Builtin:
			out.builtin = v.Name()
			return out
		}
		if f := c.StaticCallee(); f != nil {
			out.ssa = f
			if o := f.Origin(); o != nil {
				f = o
			}
			if obj, ok := f.Object().(*types.Func); ok {
				out.fn = obj
			}
		}
	}
	if out.fn != nil {
		out.name = out.fn.Name()
		if out.fn.Pkg() != nil {
			out.pkg = out.fn.Pkg().Path()
			out.pkgName = out.fn.Pkg().Name()
		}
		if sig, ok := out.fn.Type().(*types.Signature); ok && sig.Recv() != nil {
			out.recv = typeName(sig.Recv().Type())
		}
	}
	return out
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		return t.Obj().Name()
	case *types.Interface:
		return "interface"
	}
	return ""
}

// display is how a callee is named in messages: uuid.NewString,
// openai.ChatCompletionService.New.
func (c callee) display() string {
	if c.recv != "" && c.recv != "interface" {
		return c.pkgName + "." + c.recv + "." + c.name
	}
	if c.pkgName != "" {
		return c.pkgName + "." + c.name
	}
	return c.name
}

func hasPathPrefix(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// sourceCall reports whether a call draws a per-attempt value, by the key
// model or because it asks a language model. out is -1 when the results
// are the value, or the index of the argument whose memory is filled
// (crypto/rand.Read).
func (e *engine) sourceCall(c callee) (kind string, out int, ok bool) {
	if c.fn == nil {
		return "", 0, false
	}
	if k, fills, ok := e.model.Source(c.pkg, c.recv, c.name); ok {
		if fills < 0 && (c.sig == nil || !hasDataResult(c.sig)) {
			return "", 0, false // rand.Shuffle, rand.Seed: nothing drawn
		}
		return sourceKind(k), fills, true
	}
	if isLLMCall(c) {
		return kindModel, -1, true
	}
	return "", 0, false
}

// sourceKind turns a model kind into the words of a message.
func sourceKind(k string) string {
	switch k {
	case "random":
		return kindRandom
	case "clock":
		return kindClock
	case "counter":
		return kindCounter
	case "message-id":
		return kindIdentity
	case "request-id":
		return kindRequest
	case "attempt":
		return kindAttempt
	case "model":
		return kindModel
	}
	return kindConfigured
}

func isLLMCall(c callee) bool {
	llm := false
	for _, prefix := range llmPackages {
		if hasPathPrefix(c.pkg, prefix) {
			llm = true
			break
		}
	}
	if !llm || c.sig == nil || !hasDataResult(c.sig) {
		return false
	}
	n := c.name
	for _, skip := range []string{"With", "Set", "Close", "Err", "NewClient", "Option", "Param", "Marshal", "Unmarshal", "String", "Raw", "Valid", "Is", "As", "To", "Add", "Next"} {
		if strings.HasPrefix(n, skip) {
			return false
		}
	}
	if c.recv == "" {
		// Package-level calls that ask the model: langchaingo's
		// llms.GenerateFromSinglePrompt and the like.
		return strings.HasPrefix(n, "Generate") || strings.HasPrefix(n, "Call") || strings.HasPrefix(n, "Complete")
	}
	r := c.recv
	switch {
	case strings.HasSuffix(r, "Service"), strings.HasSuffix(r, "Client"), r == "interface",
		strings.HasSuffix(r, "Model"), r == "LLM", strings.HasSuffix(r, "Chat"), strings.HasSuffix(r, "Session"):
		return n == "New" || n == "Get" || strings.HasPrefix(n, "Create") || strings.HasPrefix(n, "Generate") ||
			strings.HasPrefix(n, "Complete") || strings.HasPrefix(n, "Chat") || strings.HasPrefix(n, "Send") ||
			strings.HasPrefix(n, "Call") || strings.HasPrefix(n, "Stream") || strings.HasPrefix(n, "New") ||
			strings.HasPrefix(n, "Run") || strings.HasPrefix(n, "Parse")
	case strings.Contains(r, "Stream"):
		return n == "Current" || n == "Recv" || n == "Receive"
	}
	return false
}

func hasDataResult(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		if carriesData(sig.Results().At(i).Type()) {
			return true
		}
	}
	return false
}

// carriesData reports whether values of t can carry a key's taint. Errors,
// contexts and functions do not: a context carrying a request id must not
// taint everything computed with that context.
func carriesData(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		obj := u.Obj()
		if obj.Pkg() == nil && obj.Name() == "error" {
			return false
		}
		if obj.Pkg() != nil && obj.Pkg().Path() == "context" && obj.Name() == "Context" {
			return false
		}
	case *types.Signature:
		return false
	}
	if u, ok := t.Underlying().(*types.Signature); ok && u != nil {
		return false
	}
	return true
}

// constString returns the value of a constant string operand.
func constString(v ssa.Value) (string, bool) {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
		return constant.StringVal(c.Value), true
	}
	return "", false
}

// identityKind classifies a field, map key or header name as per-attempt
// identity, or "".
func identityKind(name string) string {
	if !keyname.Identity.Match(name) {
		return ""
	}
	n := keyname.Normalize(name)
	switch {
	case isCounterName(n):
		// A field, variable or function named Attempt, RetryCount or
		// Redelivered says nothing about where its value comes from: a
		// task decoded from the message body carries the same Attempt on
		// every redelivery. Counters are found by provenance instead: the
		// broker's envelope fields (the key model's sources) and counters
		// this process increments (localCounter).
		return ""
	case strings.Contains(n, "request") || strings.Contains(n, "reqid") || strings.Contains(n, "trace") || strings.Contains(n, "span"):
		return kindRequest
	}
	return kindIdentity
}

// isCounterName reports normalized names of attempt counters and
// redelivery flags.
func isCounterName(n string) bool {
	return strings.Contains(n, "attempt") || strings.Contains(n, "retr") || strings.Contains(n, "redeliver") || strings.Contains(n, "count")
}

// isHeaderGetter reports methods that read a named value: http.Header.Get,
// amqp Table lookups, gin's GetHeader, echo's Param.
func isHeaderGetter(name string) bool {
	switch name {
	case "Get", "Values", "GetHeader", "Header", "Value", "Param", "Query", "FormValue", "PostFormValue", "Attribute", "Peek", "GetString", "Lookup":
		return true
	}
	return false
}

// writerMethod reports methods whose arguments flow into their receiver:
// hash writes, builders and buffers.
func writerMethod(name string) bool {
	switch name {
	case "Write", "WriteString", "WriteByte", "WriteRune", "WriteTo", "Add", "Set", "Append", "Encode":
		return true
	}
	return false
}

// setterKeyName reports calls like SetIdempotencyKey, WithIdempotencyKey.
func setterKeyName(name string) bool {
	for _, p := range []string{"Set", "With", "Add", "Put"} {
		if strings.HasPrefix(name, p) && len(name) > len(p) && keyname.Key.Match(name[len(p):]) {
			return true
		}
	}
	return false
}

// trimAccessor strips accessor decoration from a function name:
// GetReqID → ReqID, RequestIDFromContext → RequestID.
func trimAccessor(name string) string {
	n := keyname.Normalize(name)
	n = strings.TrimPrefix(n, "get")
	for _, suffix := range []string{"fromcontext", "fromctx", "fromrequest", "fromheaders", "fromheader", "fromincomingcontext"} {
		n = strings.TrimSuffix(n, suffix)
	}
	return n
}

// messageIDName treats the ID field of a message or delivery type
// (WAMessage.ID, pubsub.Message.ID) as a message id.
func messageIDName(t types.Type, field string) string {
	if field != "ID" && field != "Id" {
		return field
	}
	tn := keyname.Normalize(typeName(t))
	for _, suffix := range []string{"message", "msg", "delivery"} {
		if strings.HasSuffix(tn, suffix) {
			return "MessageID"
		}
	}
	return field
}

func isTimeType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}
