package baredigest

import (
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
)

// A digest of an inbound message's body, kept in a variable or field and
// used to look up whether that message was already processed, is a
// fingerprint for deduplicating what we receive: nobody outside can use it
// to replay or pre-empt a charge, whatever the variable is called. It is
// judged by flow: the body of a received request or message on the
// backward slice, and a lookup among the value's uses. The same value sent
// out as a key (a header, an SDK parameter) is a separate sink and is still
// reported there.
func inboundLookup(f *keyflow.Func, sink keyflow.Sink) bool {
	target := sinkTarget(f, sink)
	if target == nil || !fromInboundBody(f, sink.Value) {
		return false
	}
	return usedInLookup(f, target)
}

// sinkTarget returns the variable or struct field a variable or field sink
// assigns, or nil for other sinks.
func sinkTarget(f *keyflow.Func, sink keyflow.Sink) types.Object {
	if !strings.HasPrefix(sink.What, "variable ") && !strings.HasPrefix(sink.What, "field ") {
		return nil
	}
	var target types.Object
	ast.Inspect(f.Decl.Body, func(n ast.Node) bool {
		if target != nil {
			return false
		}
		switch x := n.(type) {
		case *ast.AssignStmt:
			for i, rhs := range x.Rhs {
				if rhs == sink.Value && i < len(x.Lhs) {
					target = lhsObject(f.Info(), x.Lhs[i])
				}
			}
		case *ast.KeyValueExpr:
			if x.Value == sink.Value {
				if id, ok := x.Key.(*ast.Ident); ok {
					target = f.Info().ObjectOf(id)
				}
			}
		}
		return true
	})
	return target
}

func lhsObject(info *types.Info, e ast.Expr) types.Object {
	switch x := e.(type) {
	case *ast.Ident:
		return info.ObjectOf(x)
	case *ast.SelectorExpr:
		return info.ObjectOf(x.Sel)
	}
	return nil
}

// fromInboundBody reports whether the backward slice of v reads the body
// of a received HTTP request or broker message.
func fromInboundBody(f *keyflow.Func, v ast.Expr) bool {
	found := false
	f.Walk(v, func(e ast.Expr) bool {
		if found {
			return false
		}
		switch x := e.(type) {
		case *ast.SelectorExpr:
			found = isInboundBody(f.Info(), x)
		case *ast.CallExpr:
			// io.ReadAll(r.Body) and the like: the walk may stop at the
			// call, so look at its arguments directly.
			for _, a := range x.Args {
				if sel, ok := ast.Unparen(a).(*ast.SelectorExpr); ok && isInboundBody(f.Info(), sel) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// inboundBodies are the fields that hold a received request's or message's
// body, by the package and type that declares them.
var inboundBodies = map[string]string{
	"net/http.Request.Body":                                       "",
	"github.com/rabbitmq/amqp091-go.Delivery.Body":                "",
	"github.com/streadway/amqp.Delivery.Body":                     "",
	"github.com/nats-io/nats.go.Msg.Data":                         "",
	"github.com/aws/aws-sdk-go-v2/service/sqs/types.Message.Body": "",
	"github.com/segmentio/kafka-go.Message.Value":                 "",
}

func isInboundBody(info *types.Info, sel *ast.SelectorExpr) bool {
	t := info.TypeOf(sel.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	_, ok = inboundBodies[named.Obj().Pkg().Path()+"."+named.Obj().Name()+"."+sel.Sel.Name]
	return ok
}

// lookupName marks calls that ask whether a record exists.
var lookupName = regexp.MustCompile(`^(Get|Find|Lookup|Load|Fetch|Exists?|Has|Seen|Is|Was|Already|Check|SetNX|SetNx|Claim)`)

var selectSQL = regexp.MustCompile(`(?is)^\s*(select|with)\b`)

// usedInLookup reports whether target is passed to a lookup: a call whose
// constant SQL argument is a SELECT, or a call named like a lookup.
func usedInLookup(f *keyflow.Func, target types.Object) bool {
	info := f.Info()
	found := false
	ast.Inspect(f.Decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || !passes(info, call, target) {
			return !found
		}
		for _, a := range call.Args {
			if tv, ok := info.Types[a]; ok && tv.Value != nil && tv.Value.Kind() == constant.String &&
				selectSQL.MatchString(constant.StringVal(tv.Value)) {
				found = true
			}
		}
		if fn := keyflow.Callee(info, call); fn != nil && lookupName.MatchString(fn.Name()) {
			found = true
		}
		return !found
	})
	return found
}

// passes reports whether one of call's arguments is target itself, or,
// for a struct field, the struct holding it (a dedup record looked up
// whole: s.Seen(ctx, rec)).
func passes(info *types.Info, call *ast.CallExpr, target types.Object) bool {
	for _, a := range call.Args {
		a = ast.Unparen(a)
		if lhsObject(info, a) == target || holdsField(info.TypeOf(a), target) {
			return true
		}
	}
	return false
}

// holdsField reports whether t is (a pointer to) a struct declaring field.
func holdsField(t types.Type, field types.Object) bool {
	v, ok := field.(*types.Var)
	if !ok || !v.IsField() || t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i) == v {
			return true
		}
	}
	return false
}
