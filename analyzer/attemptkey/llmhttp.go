package attemptkey

// Model output fetched without an SDK: agents often call the chat
// completions REST API with net/http. The response of a request whose URL
// is a constant naming a model API is model output.

import (
	"go/constant"
	"go/token"
	"regexp"

	"golang.org/x/tools/go/ssa"
)

// llmEndpoint matches URLs of model APIs: the hosted providers' API hosts
// and the OpenAI-compatible chat completions path that local servers share.
var llmEndpoint = regexp.MustCompile(`(?i)\b(api\.openai\.com|api\.anthropic\.com|generativelanguage\.googleapis\.com|api\.mistral\.ai|api\.groq\.com|openrouter\.ai|api\.deepseek\.com|api\.together\.xyz|api\.cohere\.(ai|com)|\.openai\.azure\.com)\b|/chat/completions\b`)

// llmHTTPCall reports a net/http call that sends a request to a model API:
// http.Post/Get/PostForm and Client.Post/Get/PostForm with a constant URL,
// and Client.Do of a request built by http.NewRequest[WithContext] with one.
func llmHTTPCall(c *ssa.CallCommon, cal callee) bool {
	if cal.pkg != "net/http" {
		return false
	}
	args := callArgs(c)
	switch cal.name {
	case "Post", "Get", "PostForm", "Head":
		i := 0
		if cal.recv != "" {
			i = 1
		}
		return i < len(args) && llmURL(args[i], 0)
	case "Do":
		if cal.recv == "" || len(args) < 2 {
			return false
		}
		ext, ok := args[1].(*ssa.Extract)
		if !ok {
			return false
		}
		mk, ok := ext.Tuple.(*ssa.Call)
		if !ok {
			return false
		}
		fn, ok := mk.Call.Value.(*ssa.Function)
		if !ok || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "net/http" {
			return false
		}
		margs := mk.Call.Args
		switch fn.Name() {
		case "NewRequest":
			return len(margs) >= 2 && llmURL(margs[1], 0)
		case "NewRequestWithContext":
			return len(margs) >= 3 && llmURL(margs[2], 0)
		}
	}
	return false
}

// llmURL reports whether a URL expression has a constant part naming a
// model API (a constant, or a concatenation with one).
func llmURL(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Const:
		return v.Value != nil && v.Value.Kind() == constant.String && llmEndpoint.MatchString(constant.StringVal(v.Value))
	case *ssa.BinOp:
		return v.Op == token.ADD && (llmURL(v.X, depth+1) || llmURL(v.Y, depth+1))
	}
	return false
}
