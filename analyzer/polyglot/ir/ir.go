// Package ir is the small intermediate form the Python and TypeScript
// front ends lower source files into, and the flow engine reads: functions
// of statements (assignments, calls, returns, branches, loops) over
// expressions (names, field and key reads, calls with keyword arguments or
// options objects, string building, dict and object literals). It keeps
// only what decides where a value comes from and where it goes.
package ir

// Pos is a 1-based line and column.
type Pos struct{ Line, Col int }

// File is one lowered source file.
type File struct {
	Path    string // as given to the front end
	Lang    string // "python" or "typescript"
	Imports []Import
	Module  *Func   // the top-level statements
	Funcs   []*Func // every function, method and lambda, including nested ones
	Ignores []Ignore
	// Generated is set for files that say they are generated or are minified.
	Generated bool
	// SyntaxErrors counts the parts the parser could not read (left out).
	SyntaxErrors int
	// ServerActions is set for a module that opens with 'use server': its
	// functions are React server actions, which a client's request runs.
	ServerActions bool
	// Comments are the byte spans of the file's comments: a name a comment
	// mentions is no call of it.
	Comments []Span
}

// Span is a half-open range of byte offsets in a file's source.
type Span struct{ Start, End int }

// Import binds a local name to a module or a member of one.
type Import struct {
	Local  string // the name bound in the file
	Module string // as written: "uuid", "./util", "..pkg.mod", "@/lib/x"
	Name   string // the member imported; "" binds the module itself
	// Reexport: export … from "m" binds the name for the modules that
	// import this one, whether or not this file uses it.
	Reexport bool
}

// CommonJSExports is the module-level name a CommonJS module's
// module.exports = … binds: what require() of the whole module returns.
const CommonJSExports = "module.exports"

// Ignore is an idemcheck:ignore directive.
type Ignore struct {
	Line   int
	Rules  []string // upper-cased, or "ALL"
	Reason string
}

// Func is a function, method, lambda or the module body.
type Func struct {
	Name       string // "charge", "Worker.run", "<module>", "<lambda>"
	Class      string // enclosing class, for methods
	Params     []string
	Body       []Stmt
	Pos        Pos
	Decorators []Expr
	Parent     *Func // the enclosing function of a nested one
	// IsClass marks a class: calling it constructs an object whose
	// methods are the Funcs with this Class.
	IsClass bool
	// Private marks a method only its class can call (TypeScript's
	// private, a #name).
	Private bool
	// Member marks a method of an object literal ({ async charge() {…} }).
	Member bool
	// Exported marks a TypeScript or JavaScript function declared in an
	// export statement (export function charge, export default function):
	// other modules can import it. A module's other functions only its
	// own file can call.
	Exported bool
	// Bases are a class's base classes (Python's class C(Base): …,
	// TypeScript's class C extends Base).
	Bases []Expr
	// KwargsParam is the parameter that collects the keyword arguments no
	// other parameter takes (Python's **params), or "".
	KwargsParam string
	// ParamTypes are the parameters' declared types that name a class
	// (stripe: Stripe, client: stripe.StripeClient), by parameter.
	ParamTypes map[string]Expr
	// FieldTypes are a class's instance fields' declared types that name
	// a class, by field (on the class's Func).
	FieldTypes map[string]Expr
	// Globals are the names a Python function declares global: its
	// assignments to them store into the module's variables.
	Globals []string
}

// SetFieldType records that a class's instance field is declared of type t
// (private readonly factory: CheckoutFactory), on the class's Func.
func (f *Func) SetFieldType(field string, t Expr) { setType(&f.FieldTypes, field, t) }

// SetParamType records that parameter p is declared of type t.
func (f *Func) SetParamType(p string, t Expr) { setType(&f.ParamTypes, p, t) }

// setType records name's declared type t in *types, made on first use; a
// nil t (a type that names no class) records nothing.
func setType(types *map[string]Expr, name string, t Expr) {
	if t == nil {
		return
	}
	if *types == nil {
		*types = map[string]Expr{}
	}
	(*types)[name] = t
}

// Stmt is a statement.
type Stmt interface{ stmt() }

// Assign stores Value into Target: a *Name, *Attr, *Index or *Pattern.
// Op is "" for plain assignment and the operator of an augmented one
// ("+" for x += 1 and x++).
type Assign struct {
	Target Expr
	Value  Expr
	Op     string
	Pos    Pos
	// Decl marks a declaration (TypeScript's let, const and var): the
	// name is the function's own. A plain assignment to a name the
	// function neither declares nor takes as a parameter stores into an
	// enclosing scope's variable (in Python, only a name it declares
	// global).
	Decl bool
}

// ExprStmt evaluates X for its effects.
type ExprStmt struct{ X Expr }

// Return returns X (nil: nothing).
type Return struct {
	X   Expr
	Pos Pos
}

// If runs Then or Else (also match/switch cases, lowered as a chain).
type If struct {
	Cond       Expr
	Then, Else []Stmt
}

// Loop runs Body zero or more times; Head are the per-iteration
// assignments of a for loop (for x in xs: x = element of xs).
type Loop struct {
	Head []Stmt
	Body []Stmt
	Pos  Pos
}

// Try runs Body, then maybe Handlers, then Finally.
type Try struct{ Body, Handlers, Finally []Stmt }

// Break leaves the innermost loop (break; the loop's own exit, not a
// labelled one elsewhere).
type Break struct{}

// FuncDef binds a nested function or class method to a local name.
type FuncDef struct {
	Name string
	F    *Func
}

func (*Assign) stmt()   {}
func (*ExprStmt) stmt() {}
func (*Return) stmt()   {}
func (*If) stmt()       {}
func (*Loop) stmt()     {}
func (*Try) stmt()      {}
func (*FuncDef) stmt()  {}
func (*Break) stmt()    {}

// Expr is an expression.
type Expr interface{ pos() Pos }

// Name is a variable reference.
type Name struct {
	ID  string
	Pos Pos
}

// Attr is X.Name.
type Attr struct {
	X    Expr
	Name string
	Pos  Pos
}

// Index is X[Key]; KeyStr is Key's value when it is a string literal.
type Index struct {
	X      Expr
	Key    Expr
	KeyStr string
	Pos    Pos
}

// Call calls Fun; Kwargs are Python keyword arguments (TS options objects
// are Dict arguments). New marks `new C(…)`.
type Call struct {
	Fun    Expr
	Args   []Expr
	Kwargs []KV
	New    bool
	Pos    Pos
	// Spread marks, by position, the arguments spread into the call
	// (f(...parts), f(*parts)); nil when none is.
	Spread []bool
}

// MarkSpread records that argument i is spread.
func (c *Call) MarkSpread(i int) {
	for len(c.Spread) <= i {
		c.Spread = append(c.Spread, false)
	}
	c.Spread[i] = true
}

// IsSpread reports whether argument i is spread.
func (c *Call) IsSpread(i int) bool { return i < len(c.Spread) && c.Spread[i] }

// Lit is a literal: Kind "str", "int", "float", "bool" or "none".
type Lit struct {
	Kind  string
	Value string
	Pos   Pos
}

// Str builds a string from Parts: an f-string, a template literal, %,
// .format, join or + over strings.
type Str struct {
	Kind  string // "fstring", "template", "percent", "format", "join", "concat"
	Parts []Expr
	Pos   Pos
}

// Binary is a binary or boolean operation that is not string building; Op
// "?:" is a conditional expression (L when the condition holds, R if not).
type Binary struct {
	Op   string
	L, R Expr
	Pos  Pos
}

// KV is one entry of a dict or object literal, or a keyword argument.
// Key is the entry's name when constant; KeyX the computed key otherwise.
type KV struct {
	Key   string
	KeyX  Expr
	Value Expr
}

// Dict is a dict or object literal; Spreads are **d and ...o entries.
type Dict struct {
	Entries []KV
	Spreads []Expr
	Pos     Pos
}

// List is a list, tuple or array literal.
type List struct {
	Elems []Expr
	Pos   Pos
}

// Lambda is a function value: a lambda, arrow function or function
// expression.
type Lambda struct {
	F   *Func
	Pos Pos
}

// Pattern is a destructuring target: positional Elems ([a, b] = …,
// a, b = …) or named Keys ({ a, b: c } = …).
type Pattern struct {
	Elems []Expr
	Keys  []KV // Key: the field read; Value: the target
	Pos   Pos
}

// Other is any other expression: its value depends on Xs.
type Other struct {
	Xs  []Expr
	Pos Pos
}

func (e *Name) pos() Pos    { return e.Pos }
func (e *Attr) pos() Pos    { return e.Pos }
func (e *Index) pos() Pos   { return e.Pos }
func (e *Call) pos() Pos    { return e.Pos }
func (e *Lit) pos() Pos     { return e.Pos }
func (e *Str) pos() Pos     { return e.Pos }
func (e *Binary) pos() Pos  { return e.Pos }
func (e *Dict) pos() Pos    { return e.Pos }
func (e *List) pos() Pos    { return e.Pos }
func (e *Lambda) pos() Pos  { return e.Pos }
func (e *Pattern) pos() Pos { return e.Pos }
func (e *Other) pos() Pos   { return e.Pos }

// PosOf returns the position of e (the zero Pos for nil).
func PosOf(e Expr) Pos {
	if e == nil {
		return Pos{}
	}
	return e.pos()
}

// Dotted returns a.b.c for a chain of names and attributes, or "".
func Dotted(e Expr) string {
	switch e := e.(type) {
	case *Name:
		return e.ID
	case *Attr:
		if x := Dotted(e.X); x != "" {
			return x + "." + e.Name
		}
	}
	return ""
}
