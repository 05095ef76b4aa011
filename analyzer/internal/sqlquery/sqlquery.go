// Package sqlquery finds constant SQL passed to database/sql, pgx and sqlx
// calls (and to wrappers with the same method names) and reads the few
// things IDEM006 and IDEM007 need from it: which tables are inserted into,
// selected from or updated, whether an insert yields to a constraint, and
// which columns a WHERE clause mentions.
//
// It is not a SQL parser. It reads only constant strings (literals,
// constants, concatenations of them, and local variables assigned exactly
// once from one), strips comments and string literals, and matches
// statement shapes; anything it cannot read it skips, so it stays silent
// rather than guess.
package sqlquery

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemcheck/idemcheck/analyzer/config"
)

// Query is one constant SQL string passed to a database call.
type Query struct {
	Call *ast.CallExpr
	Arg  ast.Expr // the query argument
	SQL  string   // normalized: lower case, no comments or string literals
	Via  string   // the called method, e.g. "ExecContext"
}

// Func groups the queries of one function declaration (closures included).
type Func struct {
	Decl    *ast.FuncDecl
	Queries []Query
}

// queryMethods are the database/sql, pgx, pgxpool and sqlx entry points
// that take SQL text.
var queryMethods = map[string]bool{
	"Exec": true, "ExecContext": true, "Query": true, "QueryContext": true,
	"QueryRow": true, "QueryRowContext": true, "Prepare": true, "PrepareContext": true,
	"Queue": true, // pgx.Batch
	"Get":   true, "GetContext": true, "Select": true, "SelectContext": true,
	"NamedExec": true, "NamedExecContext": true, "NamedQuery": true, "NamedQueryContext": true,
	"MustExec": true, "MustExecContext": true, "Queryx": true, "QueryxContext": true,
	"QueryRowx": true, "QueryRowxContext": true, "Preparex": true, "PreparexContext": true,
	"PrepareNamed": true, "PrepareNamedContext": true,
}

// Funcs returns the functions of the package that pass constant SQL to a
// database call, in source order.
func Funcs(pass *analysis.Pass, ins *inspector.Inspector) []*Func {
	pkgVars := packageVars(pass)
	consts := constFuncs(pass)
	var out []*Func
	for cur := range ins.Root().Preorder((*ast.FuncDecl)(nil)) {
		decl := cur.Node().(*ast.FuncDecl)
		if decl.Body == nil {
			continue
		}
		r := &resolver{info: pass.TypesInfo, defs: localDefs(pass.TypesInfo, decl), pkgVars: pkgVars, consts: consts}
		f := &Func{Decl: decl}
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
			if fn == nil || !queryMethods[fn.Name()] {
				return true
			}
			for _, a := range call.Args {
				t := pass.TypesInfo.TypeOf(a)
				if t == nil {
					continue
				}
				if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
					continue
				}
				s, ok := r.resolve(a, 0)
				if !ok || !looksLikeSQL(s) {
					continue
				}
				f.Queries = append(f.Queries, Query{Call: call, Arg: a, SQL: Normalize(s), Via: fn.Name()})
				break
			}
			return true
		})
		if len(f.Queries) > 0 {
			out = append(out, f)
		}
	}
	return out
}

type resolver struct {
	info    *types.Info
	defs    map[types.Object][]ast.Expr
	pkgVars map[types.Object]ast.Expr
	// consts: the package's functions that only return a string
	// expression (func purchaseSelect() string { return "SELECT … FROM
	// purchases" }), by their object.
	consts map[types.Object]*ast.FuncDecl
}

// constFuncs maps the package's functions whose body is a single return
// of one value to their declarations: a query built as
// purchaseSelect() + " WHERE idempotency_key = $1" is read through them.
func constFuncs(pass *analysis.Pass) map[types.Object]*ast.FuncDecl {
	out := map[types.Object]*ast.FuncDecl{}
	for _, file := range pass.Files {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || len(fd.Body.List) != 1 || fd.Type.Params.NumFields() > 0 {
				continue
			}
			if ret, ok := fd.Body.List[0].(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
				if obj := pass.TypesInfo.Defs[fd.Name]; obj != nil {
					out[obj] = fd
				}
			}
		}
	}
	return out
}

// resolve returns the constant string value of e.
func (r *resolver) resolve(e ast.Expr, depth int) (string, bool) {
	if depth > 8 {
		return "", false
	}
	if tv, ok := r.info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.String {
			return constant.StringVal(tv.Value), true
		}
		return "", false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := r.info.ObjectOf(x)
		if obj == nil {
			return "", false
		}
		if v, ok := r.pkgVars[obj]; ok {
			return r.resolve(v, depth+1)
		}
		if ds := r.defs[obj]; len(ds) == 1 {
			return r.resolve(ds[0], depth+1)
		}
	case *ast.CallExpr:
		if fn, ok := typeutil.Callee(r.info, x).(*types.Func); ok && len(x.Args) == 0 {
			if fd := r.consts[fn]; fd != nil {
				callee := &resolver{info: r.info, defs: map[types.Object][]ast.Expr{}, pkgVars: r.pkgVars, consts: r.consts}
				return callee.resolve(fd.Body.List[0].(*ast.ReturnStmt).Results[0], depth+1)
			}
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			a, ok1 := r.resolve(x.X, depth+1)
			b, ok2 := r.resolve(x.Y, depth+1)
			if ok1 && ok2 {
				return a + b, true
			}
		}
	}
	return "", false
}

// localDefs maps each local variable to everything assigned to it.
func localDefs(info *types.Info, decl *ast.FuncDecl) map[types.Object][]ast.Expr {
	defs := map[types.Object][]ast.Expr{}
	add := func(lhs ast.Expr, rhs ast.Expr) {
		if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
			if obj := info.ObjectOf(id); obj != nil {
				defs[obj] = append(defs[obj], rhs)
			}
		}
	}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if len(n.Lhs) == len(n.Rhs) && n.Tok != token.ADD_ASSIGN {
					add(lhs, n.Rhs[i])
				} else {
					add(lhs, lhs) // unknown: makes the variable unresolvable
					add(lhs, lhs)
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if i < len(n.Values) {
					add(name, n.Values[i])
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				add(n.X, n.X) // address taken: may be written elsewhere
				add(n.X, n.X)
			}
		}
		return true
	})
	return defs
}

// packageVars maps package-level string variables initialised from a
// constant expression and never assigned in a function.
func packageVars(pass *analysis.Pass) map[types.Object]ast.Expr {
	vars := map[types.Object]ast.Expr{}
	assigned := map[types.Object]bool{}
	for _, file := range pass.Files {
		for _, d := range file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) && len(vs.Names) == len(vs.Values) {
							if obj := pass.TypesInfo.Defs[name]; obj != nil {
								vars[obj] = vs.Values[i]
							}
						}
					}
				}
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, lhs := range as.Lhs {
					if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
						if obj := pass.TypesInfo.Uses[id]; obj != nil {
							assigned[obj] = true
						}
					}
				}
			}
			return true
		})
	}
	for obj := range assigned {
		delete(vars, obj)
	}
	return vars
}

var sqlStart = regexp.MustCompile(`(?is)^\s*(select|insert|update|delete|with|merge|replace|upsert)\b`)

func looksLikeSQL(s string) bool {
	return sqlStart.MatchString(stripComments(s))
}

var (
	lineComment  = regexp.MustCompile(`--[^\n]*`)
	blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	stringLit    = regexp.MustCompile(`'(?:[^']|'')*'`)
	quotedIdent  = regexp.MustCompile("[\"`]([^\"`]*)[\"`]")
	spaces       = regexp.MustCompile(`\s+`)
)

func stripComments(s string) string {
	return lineComment.ReplaceAllString(blockComment.ReplaceAllString(s, " "), " ")
}

// Normalize lower-cases SQL and removes comments, string literals and
// identifier quotes, leaving single spaces.
func Normalize(s string) string {
	s = stripComments(s)
	s = stringLit.ReplaceAllString(s, "''")
	s = quotedIdent.ReplaceAllString(s, "$1")
	s = strings.ToLower(s)
	return strings.TrimSpace(spaces.ReplaceAllString(s, " "))
}

// Statements splits normalized SQL on semicolons.
func Statements(sql string) []string {
	var out []string
	for _, s := range strings.Split(sql, ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

var (
	insertInto = regexp.MustCompile(`\binsert\s+(?:ignore\s+|or\s+\w+\s+)?into\s+([\w.]+)`)
	selectFrom = regexp.MustCompile(`\bfrom\s+(?:only\s+)?([\w.]+)`)
	updateSet  = regexp.MustCompile(`\bupdate\s+(?:only\s+)?([\w.]+)(?:\s+(?:as\s+)?\w+)?\s+set\b`)
	yielding   = regexp.MustCompile(`\bon\s+conflict\b|\bon\s+duplicate\s+key\b|\binsert\s+ignore\b|\binsert\s+or\s+(ignore|replace)\b|\bon\s+constraint\b`)
	whereWord  = regexp.MustCompile(`\bwhere\b`)
	identWord  = regexp.MustCompile(`[a-z_][a-z0-9_$.]*`)
)

// Inserts returns the tables stmt inserts into and whether the insert
// yields to a uniqueness constraint (ON CONFLICT, ON DUPLICATE KEY,
// INSERT IGNORE).
func Inserts(stmt string) (tables []string, yields bool) {
	for _, m := range insertInto.FindAllStringSubmatch(stmt, -1) {
		tables = append(tables, baseName(m[1]))
	}
	return tables, yielding.MatchString(stmt)
}

// Lookup is a SELECT or UPDATE of a table with the columns its WHERE
// clause mentions.
type Lookup struct {
	Kind  string // "select" or "update"
	Table string
	Where []string // identifiers in the WHERE clause, without table aliases
}

// Lookups returns the SELECT-from and UPDATE targets of stmt.
func Lookups(stmt string) []Lookup {
	var out []Lookup
	where := whereColumns(stmt)
	if m := updateSet.FindStringSubmatch(stmt); m != nil {
		out = append(out, Lookup{Kind: "update", Table: baseName(m[1]), Where: where})
	}
	if strings.Contains(stmt, "select") {
		for _, m := range selectFrom.FindAllStringSubmatch(stmt, -1) {
			out = append(out, Lookup{Kind: "select", Table: baseName(m[1]), Where: where})
		}
	}
	return out
}

func whereColumns(stmt string) []string {
	loc := whereWord.FindStringIndex(stmt)
	if loc == nil {
		return nil
	}
	where := stmt[loc[1]:]
	for _, end := range whereEnd.FindAllStringIndex(where, -1) {
		// The first outside parentheses: a subquery's LIMIT ends only
		// the subquery.
		if before := where[:end[0]]; strings.Count(before, "(") == strings.Count(before, ")") {
			where = before // RETURNING's columns are no filter
			break
		}
	}
	var cols []string
	prev := ""
	for _, w := range identWord.FindAllString(where, -1) {
		if prev != "from" && prev != "join" { // a subquery's table is no column
			cols = append(cols, baseName(w))
		}
		prev = w
	}
	return cols
}

// whereEnd is where a WHERE clause's conditions end.
var whereEnd = regexp.MustCompile(`\b(returning|order\s+by|group\s+by|having|limit|offset|for\s+(update|share|no\s+key\s+update))\b`)

func baseName(s string) string {
	if i := strings.LastIndex(s, "."); i >= 0 {
		return s[i+1:]
	}
	return s
}

var defaultTable = regexp.MustCompile(`(?i)(idempot|intent|intenc|dedup|processed|(^|_)a[cç](ao|ão|oes|ões)($|_))`)

// IsIdempotencyTable reports whether a table name says it records
// idempotency keys, intents or processed messages.
func IsIdempotencyTable(c *config.Config, name string) bool {
	return defaultTable.MatchString(name) || c.MatchTable(name)
}

var defaultTenant = map[string]bool{
	"tenant_id": true, "tenant": true, "tenant_uuid": true, "client_id": true, "account_id": true,
	"merchant_id": true, "organization_id": true, "org_id": true, "workspace_id": true,
	"company_id": true, "customer_id": true, "cliente_id": true, "conta_id": true, "empresa_id": true,
	"lojista_id": true, "estabelecimento_id": true,
	// The other owners an API's credentials belong to: a project (Convoy's
	// API keys), a team, a store or seller of a marketplace, an app.
	"project_id": true, "team_id": true, "store_id": true, "shop_id": true, "seller_id": true,
	"vendor_id": true, "partner_id": true, "app_id": true, "application_id": true, "owner_id": true,
	// The user who sent the key is its client, in an API whose callers
	// are users: a key scoped by user is per-client.
	"user_id": true, "usuario_id": true,
	// The credential a caller sends its key with: the API key.
	"api_key_id": true, "api_key_hash": true,
}

// IsTenantColumn reports whether col scopes rows to a tenant.
func IsTenantColumn(c *config.Config, col string) bool {
	col = strings.ToLower(col)
	return defaultTenant[col] || strings.HasSuffix(col, "tenant_id") || c.IsTenantColumn(col)
}

var keyColumn = regexp.MustCompile(`^(key|key_id|chave|.*idempot.*|.*dedup.*|.*_key|chave_.*|.*_chave)$`)

// IsKeyColumn reports whether col holds an idempotency key.
func IsKeyColumn(col string) bool { return keyColumn.MatchString(strings.ToLower(col)) }

var idempotencyColumn = regexp.MustCompile(`idempot|dedup`)

// IsIdempotencyColumn reports whether col says it holds an idempotency or
// dedup key (idempotency_key, dedup_id), in whatever table it sits.
func IsIdempotencyColumn(col string) bool {
	return idempotencyColumn.MatchString(strings.ToLower(col))
}
