package flow

import (
	"cmp"
	"slices"

	"github.com/idemcheck/idemcheck/analyzer/keyname"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
	"github.com/idemcheck/idemcheck/analyzer/report"
)

// Source kinds as they appear in messages: the same words as the Go
// engine's.
var kindText = map[string]string{
	"random":     "random per attempt",
	"clock":      "clock reading, differs per attempt",
	"message-id": "transport message id, changes when the message is re-sent",
	"request-id": "request identity, new per request",
	"attempt":    "attempt counter, changes per retry",
	"model":      "model output, differs per call",
	"counter":    "counter, differs per call",
	"row":        "id of a row inserted per attempt",
	"":           "configured as per-attempt",
}

// consequence says what repeats the effect with another key: for a value
// drawn in an HTTP route, the client's retry of the request.
func (e *engine) consequence(o *origin) string {
	if e.entryOf(o.fn) == "route" && (o.kind == "random" || o.kind == "clock" || o.kind == "counter") {
		return "a retried request computes a different key"
	}
	return consequence(o.kind)
}

func consequence(kind string) string {
	switch kind {
	case "message-id":
		return "a re-sent message computes a different key"
	case "request-id":
		return "a retried request computes a different key"
	case "attempt":
		return "a retry computes a different key"
	}
	return "a redelivery computes a different key"
}

// origin is where a per-attempt value is drawn.
type origin struct {
	kind   string // a source kind: random, clock, message-id, attempt, model, counter, row
	source string // what was called or read: "uuid.uuid4()"
	file   string
	pos    ir.Pos
	fn     *ir.Func
	loops  int // the loop depth at the draw
	// unless: drawn only when a key handed in is missing (a fallback);
	// nil when always drawn.
	unless *guard
	// stored: a callee wrote the value to the database before handing it
	// back (a service's create_order), so its callers hold it stored.
	stored bool
	// when: the tests of fn's parameters against string literals on the
	// path that drew it; a call's constant argument failing one rules
	// the value out (see cases.go).
	when []paramCase
	// keptOnRow: drawn only when the row read back had none, and put on
	// that row (if not row.key: row.key = uuid4()); a write of it is a
	// claim (see keepOnRow).
	keptOnRow bool
}

// paramRef says a value comes from a parameter, or from one of its fields
// (path "a.b").
type paramRef struct {
	i    int
	path string
	// integral: the parameter reaches the value through an integer
	// conversion (int(m.amount * 100)), so a float argument does not make
	// the value a float.
	integral bool
	// serialized: the parameter reaches the value serialized whole
	// (JSON.stringify(payload)), which IDEM004 reports in the callee.
	serialized bool
}

// value is the abstract value of an expression: where it comes from
// (origins, parameters), its fields when it is a dict or object built
// here, and what a rule wants to know of it.
type value struct {
	origins []*origin
	params  []paramRef
	fields  map[string]*value

	float   bool   // a float is in it (IDEM003)
	payload string // a whole payload serialized into it (IDEM004): "json.dumps(order)"
	// payloadAt is where that payload is serialized.
	payloadAt *report.Related
	digest    string // a bare digest of it (IDEM005): "hashlib.sha256"
	// digestAt is where that digest is taken, shown beside the key it
	// reaches.
	digestAt *report.Related
	// digestBeside: the parameters written beside the digest in the
	// string that holds it; a caller's argument that varies makes the key
	// a composite, not a bare digest.
	digestBeside []paramRef
	// overKey: an idempotency key read from a field is in it
	// (sha256(evt.idempotency_key + ":credit")). A digest over a key drawn
	// at random is as unguessable as that key: no bare digest.
	overKey bool
	stable  bool // read back from the database, or replay-stable
	header  bool // the client's own idempotency header, passed through

	str    string // its constant string value, when known
	hasStr bool
	none   bool // None, null or undefined
	// falseLit is the literal false (False in Python).
	falseLit bool

	// local is a dict, object or list literal built in the project: a
	// method called on it (push, append, set) keeps its arguments in this
	// process, so a key-named field handed to it does not leave.
	local bool

	// An external module or a member of one (mod with chain "" is the
	// module), or an object a module's function returned.
	mod   string
	chain string
	isMod bool

	// A function value: a project function or class, bound to a receiver.
	fn   *ir.Func
	file *ir.File
	recv *value
	// A project module (a resolved import of a whole module).
	modFile *ir.File
	// An instance of a project class.
	class string
	// at is where the value was written into a dict or object literal,
	// for a key found among the fields of a call's argument.
	at ir.Pos
	// classFile is the file that defines class, for an object constructed
	// from a class another module defines (its methods are found there).
	classFile *ir.File

	// The access path from a root (a parameter, a call's result) in
	// normalized field names, for transport envelopes.
	path     string
	rooted   bool
	consumer bool // the root is a parameter of a registered consumer
	// lib: the library that made this object (a Firestore query built by
	// a client's methods), when mod no longer says.
	lib string
	// advanced: a result whose fields are counter columns an UPDATE …
	// RETURNING advanced; reading its rows keeps them.
	advanced bool
	// incoming: the root is a parameter declared of an HTTP server's
	// request type (the request this process is answering).
	incoming bool
	// handedIn: the root is a parameter of the function or of one that
	// encloses it (a closure reads its parent's parameters without
	// parameter references).
	handedIn bool
	// outerParam: 1 + the index of the enclosing function's parameter
	// this is, as its closures see it (without a parameter reference,
	// which would be theirs); 0 otherwise.
	outerParam int

	// computed: made from other values (string building, operators, a
	// call's result), not one handed in as it is.
	computed bool
}

func (v *value) clean() bool {
	return v == nil || (len(v.origins) == 0 && len(v.params) == 0 && !v.float && v.payload == "" && v.digest == "" && len(v.fields) == 0)
}

func constStr(s string) *value { return &value{str: s, hasStr: true} }

// whole is v with the contributions of all its fields.
func whole(v *value) *value {
	if v == nil || len(v.fields) == 0 {
		return v
	}
	out := &value{}
	addInto(out, v, 0)
	out.stable = v.stable
	return out
}

func addInto(out, v *value, depth int) {
	if v == nil {
		return
	}
	out.origins = mergeOrigins(out.origins, v.origins)
	out.params = mergeParams(out.params, v.params)
	out.float = out.float || v.float
	if out.payload == "" {
		out.payload, out.payloadAt = v.payload, v.payloadAt
	}
	if out.digest == "" {
		out.digest, out.digestAt = v.digest, v.digestAt
	}
	out.header = out.header || v.header
	out.overKey = out.overKey || v.overKey
	if depth < 4 {
		for _, f := range v.fields {
			addInto(out, f, depth+1)
		}
	}
}

// union is the value computed from vs (string building, operators,
// unknown calls): their taint, without their fields.
func union(vs ...*value) *value {
	out := &value{computed: true}
	allStable, any := true, false
	for _, v := range vs {
		if v == nil {
			continue
		}
		any = true
		addInto(out, v, 0)
		if !v.stable {
			allStable = false
		}
	}
	out.stable = any && allStable && len(out.origins) == 0
	return out
}

// merge joins the values of a variable on two paths (if/else).
func merge(a, b *value) *value {
	switch {
	case a == nil:
		return b
	case b == nil || a == b:
		return a
	}
	out := *a
	out.origins = mergeOrigins(a.origins, b.origins)
	out.params = mergeParams(a.params, b.params)
	out.float = a.float || b.float
	if out.payload == "" {
		out.payload, out.payloadAt = b.payload, b.payloadAt
	}
	if a.digest == "" || b.digest == "" {
		// A digest on one path only: the other sends what was hashed,
		// as guessable, so the key is no bare digest.
		out.digest, out.digestBeside = "", nil
	}
	out.stable = a.stable && b.stable
	out.overKey = a.overKey && b.overKey
	out.header = a.header && b.header
	out.none = a.none && b.none
	out.computed = a.computed || b.computed
	if len(b.fields) > 0 {
		out.fields = map[string]*value{}
		for k, f := range a.fields {
			out.fields[k] = f
		}
		for k, f := range b.fields {
			out.fields[k] = merge(out.fields[k], f)
		}
	}
	if a.fn == nil {
		out.fn, out.file, out.recv = b.fn, b.file, b.recv
	}
	if a.class == "" {
		out.class, out.classFile = b.class, b.classFile
	}
	if out.mod == "" {
		out.mod, out.chain, out.isMod = b.mod, b.chain, b.isMod
	}
	return &out
}

func mergeOrigins(a, b []*origin) []*origin {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := append([]*origin(nil), a...)
	for _, o := range b {
		if !slices.Contains(a, o) {
			out = append(out, o)
		}
	}
	if len(out) > maxOrigins {
		// Keep the first by position, not the first merged: fields are
		// merged in map order, and which origins a cap keeps must not
		// change from one run to the next. Keeping the least k under one
		// order gives the same set whatever order the merges come in.
		slices.SortStableFunc(out, compareOrigins)
		out = out[:maxOrigins]
	}
	return out
}

// maxOrigins caps the origins a value carries: enough to report each
// draw that reaches a key, bounded so a value built from many stays cheap.
const maxOrigins = 16

func compareOrigins(a, b *origin) int {
	return cmp.Or(
		cmp.Compare(a.file, b.file),
		cmp.Compare(a.pos.Line, b.pos.Line),
		cmp.Compare(a.pos.Col, b.pos.Col),
		cmp.Compare(a.kind, b.kind),
		cmp.Compare(a.source, b.source),
	)
}

func mergeParams(a, b []paramRef) []paramRef {
	if len(b) == 0 {
		return a
	}
	out := append([]paramRef(nil), a...)
	for _, p := range b {
		dup := false
		for _, x := range out {
			if x == p {
				dup = true
				break
			}
		}
		if !dup && len(out) < 16 {
			out = append(out, p)
		}
	}
	return out
}

// field reads v.name, field-sensitively.
func field(v *value, name string) *value {
	if v == nil {
		return nil
	}
	if f, ok := v.fields[name]; ok {
		return f
	}
	out := &value{origins: v.origins, float: v.float, stable: v.stable, header: v.header, class: "", rooted: v.rooted, consumer: v.consumer, incoming: v.incoming, handedIn: v.handedIn, computed: v.computed, lib: v.lib}
	// A field not among those set here: the value's own taint (an
	// inserted row's generated id), not its siblings'.
	for _, p := range v.params {
		q := p
		if q.path == "" {
			q.path = name
		} else if len(q.path) < 200 {
			q.path += "." + name
		}
		out.params = append(out.params, q)
	}
	if v.mod != "" {
		out.mod, out.isMod = v.mod, v.isMod
		out.chain = join(v.chain, name)
	} else {
		out.chain = join(v.chain, name)
	}
	if v.rooted && len(v.path) < 200 {
		out.path = join(v.path, keyname.Normalize(name))
	}
	return out
}

// element is an element of v (a list item, an iteration variable).
func element(v *value) *value {
	if v == nil {
		return nil
	}
	out := whole(v)
	cp := *out
	cp.fields = nil
	cp.path, cp.rooted, cp.consumer = v.path, v.rooted, v.consumer
	cp.stable = v.stable
	cp.mod, cp.chain = v.mod, v.chain
	return &cp
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}
