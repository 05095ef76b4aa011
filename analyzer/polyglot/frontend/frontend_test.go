//go:build cgo

package frontend

import (
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

// dump renders the statements of a function compactly, for the tests.
func dump(ss []ir.Stmt) string {
	var b strings.Builder
	var stmt func([]ir.Stmt)
	stmt = func(ss []ir.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ir.Assign:
				b.WriteString(expr(s.Target) + " " + s.Op + "= " + expr(s.Value) + "; ")
			case *ir.ExprStmt:
				b.WriteString(expr(s.X) + "; ")
			case *ir.Return:
				b.WriteString("return " + expr(s.X) + "; ")
			case *ir.If:
				b.WriteString("if " + expr(s.Cond) + " { ")
				stmt(s.Then)
				b.WriteString("} else { ")
				stmt(s.Else)
				b.WriteString("} ")
			case *ir.Loop:
				b.WriteString("loop { ")
				stmt(s.Head)
				stmt(s.Body)
				b.WriteString("} ")
			case *ir.Try:
				b.WriteString("try { ")
				stmt(s.Body)
				stmt(s.Handlers)
				stmt(s.Finally)
				b.WriteString("} ")
			case *ir.FuncDef:
				b.WriteString("def " + s.Name + "; ")
			}
		}
	}
	stmt(ss)
	return strings.TrimSpace(b.String())
}

func expr(e ir.Expr) string {
	switch e := e.(type) {
	case nil:
		return "_"
	case *ir.Name:
		return e.ID
	case *ir.Attr:
		return expr(e.X) + "." + e.Name
	case *ir.Index:
		return expr(e.X) + "[" + expr(e.Key) + "]"
	case *ir.Call:
		var args []string
		for _, a := range e.Args {
			args = append(args, expr(a))
		}
		for _, kv := range e.Kwargs {
			args = append(args, kv.Key+"="+expr(kv.Value))
		}
		p := ""
		if e.New {
			p = "new "
		}
		return p + expr(e.Fun) + "(" + strings.Join(args, ", ") + ")"
	case *ir.Lit:
		if e.Kind == "str" {
			return `"` + e.Value + `"`
		}
		return e.Kind
	case *ir.Str:
		var ps []string
		for _, p := range e.Parts {
			ps = append(ps, expr(p))
		}
		return e.Kind + "(" + strings.Join(ps, ", ") + ")"
	case *ir.Binary:
		return "(" + expr(e.L) + " " + e.Op + " " + expr(e.R) + ")"
	case *ir.Dict:
		var ps []string
		for _, kv := range e.Entries {
			ps = append(ps, kv.Key+": "+expr(kv.Value))
		}
		for _, s := range e.Spreads {
			ps = append(ps, "..."+expr(s))
		}
		return "{" + strings.Join(ps, ", ") + "}"
	case *ir.List:
		var ps []string
		for _, p := range e.Elems {
			ps = append(ps, expr(p))
		}
		return "[" + strings.Join(ps, ", ") + "]"
	case *ir.Lambda:
		return "lambda(" + strings.Join(e.F.Params, ", ") + ")"
	case *ir.Pattern:
		var ps []string
		for _, p := range e.Elems {
			ps = append(ps, expr(p))
		}
		for _, kv := range e.Keys {
			ps = append(ps, kv.Key+":"+expr(kv.Value))
		}
		return "<" + strings.Join(ps, ", ") + ">"
	case *ir.Other:
		var ps []string
		for _, p := range e.Xs {
			ps = append(ps, expr(p))
		}
		return "other(" + strings.Join(ps, ", ") + ")"
	}
	return "?"
}

func funcNamed(t *testing.T, f *ir.File, name string) *ir.Func {
	t.Helper()
	for _, fn := range f.Funcs {
		if fn.Name == name {
			return fn
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

func TestLowerPython(t *testing.T) {
	src := `from uuid import uuid4 as u4
import datetime as dt
from . import keys

@app.post("/pay")
async def pay(req: Request, *, cents: int = 0, **kw) -> str:
    a, b = f"k-{req.id!r}", "%s:%d" % (req.id, cents)
    d = {"Idempotency-Key": "{}-{}".format(a, b), **kw}
    d["x"] = ":".join([a, b])
    cnt += 1
    with session() as s:
        r = await s.post(url, headers=d)
    match r.status:
        case 200:
            return r
        case _:
            pass
    return lambda q: q

class Worker(Base):
    def run(self, msg):
        return self.key
`
	f, err := Parse("svc/pay.py", []byte(src))
	if err != nil || f.SyntaxErrors != 0 {
		t.Fatalf("Parse: %v, %d syntax errors", err, f.SyntaxErrors)
	}
	imports := map[string]ir.Import{}
	for _, im := range f.Imports {
		imports[im.Local] = im
	}
	if imports["u4"] != (ir.Import{Local: "u4", Module: "uuid", Name: "uuid4"}) || imports["dt"].Module != "datetime" || imports["keys"] != (ir.Import{Local: "keys", Module: ".", Name: "keys"}) {
		t.Errorf("imports = %+v", f.Imports)
	}
	pay := funcNamed(t, f, "pay")
	if strings.Join(pay.Params, ",") != "req,cents,kw" || len(pay.Decorators) != 1 || expr(pay.Decorators[0]) != `app.post("/pay")` {
		t.Errorf("pay: params %v decorators %v", pay.Params, pay.Decorators)
	}
	want := `<a, b> = [fstring("k-", req.id), percent("%s:%d", req.id, cents)]; ` +
		`d = {Idempotency-Key: format("{}-{}", a, b), ...kw}; ` +
		`d["x"] = join(":", [a, b]); ` +
		`cnt += int; ` +
		`s = session(); r = s.post(url, headers=d); ` +
		`if r.status { return r; } else { if r.status { } else { r.status; } } ` +
		`return lambda(q);`
	if got := dump(pay.Body); got != want {
		t.Errorf("pay body:\n got %s\nwant %s", got, want)
	}
	run := funcNamed(t, f, "Worker.run")
	if run.Class != "Worker" || strings.Join(run.Params, ",") != "self,msg" || dump(run.Body) != "return self.key;" {
		t.Errorf("Worker.run = %+v %s", run, dump(run.Body))
	}
}

func TestLowerTypeScript(t *testing.T) {
	src := `import Stripe from "stripe";
import * as u from "uuid";
import { v4 as uuidv4 } from "uuid";
const { Pool } = require("pg");
export async function charge({ id, cents }: Order, opts?: Opts): Promise<void> {
  const key = ` + "`${id}-${uuidv4()}`" + `;
  let [a, ...rest] = list;
  const o = { amount: cents, ...opts, idempotencyKey: key, [k]: 1 };
  o.meta = { a };
  n++;
  for (const m of msgs) { await stripe.charges.create(o, { idempotencyKey: m.id as string }); }
  try { x = await new Pool().query("SELECT 1"); } catch (e) { } finally { done(); }
  return a + "-" + b;
}
class Svc { constructor(private db: Db) {} async run(x) { return this.db; } }
`
	f, err := Parse("src/charge.ts", []byte(src))
	if err != nil || f.SyntaxErrors != 0 {
		t.Fatalf("Parse: %v, %d syntax errors", err, f.SyntaxErrors)
	}
	var ims []string
	for _, im := range f.Imports {
		ims = append(ims, im.Local+"="+im.Module+":"+im.Name)
	}
	if got := strings.Join(ims, " "); got != "Stripe=stripe:default u=uuid: uuidv4=uuid:v4 Pool=pg:Pool" {
		t.Errorf("imports = %s", got)
	}
	c := funcNamed(t, f, "charge")
	want := `<id:id, cents:cents> = $p1; key = template(id, "-", uuidv4()); <a, rest> = list; ` +
		`o = {amount: cents, idempotencyKey: key, : int, ...opts}; o.meta = {a: a}; n += int; ` +
		`loop { m = msgs[_]; stripe.charges.create(o, {idempotencyKey: m.id}); } ` +
		`try { x = new Pool().query("SELECT 1"); done(); } ` +
		`return concat(a, "-", b);`
	if got := dump(c.Body); got != want {
		t.Errorf("charge body:\n got %s\nwant %s", got, want)
	}
	if len(c.Params) != 2 {
		t.Errorf("params = %v", c.Params)
	}
	run := funcNamed(t, f, "Svc.run")
	if dump(run.Body) != "return this.db;" {
		t.Errorf("Svc.run = %s", dump(run.Body))
	}
}

func TestIgnoreDirectives(t *testing.T) {
	igs := ignores([]byte("x = 1  # idemcheck:ignore IDEM001,IDEM003 read back below\n// idemcheck:ignore IDEM005\n"))
	if len(igs) != 2 || igs[0].Line != 1 || strings.Join(igs[0].Rules, ",") != "IDEM001,IDEM003" || igs[0].Reason != "read back below" || igs[1].Reason != "" {
		t.Errorf("ignores = %+v", igs)
	}
}

func TestGenerated(t *testing.T) {
	if !looksGenerated([]byte("# Code generated by protoc. DO NOT EDIT.\nx = 1\n")) || !looksGenerated([]byte(strings.Repeat("a", 2000))) || looksGenerated([]byte("x = 1\n")) {
		t.Error("looksGenerated")
	}
}
