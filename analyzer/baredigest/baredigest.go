package baredigest

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// Analyzer reports keys that are an unkeyed digest (IDEM005).
var Analyzer = &analysis.Analyzer{
	Name:     Rule.ID,
	Doc:      Rule.Doc(),
	URL:      Rule.URL(),
	Requires: []*analysis.Analyzer{keyflow.Analyzer, keymodel.Analyzer},
	Run:      run,
}

func init() {
	keymodel.RegisterFlag(&Analyzer.Flags)
}

func run(pass *analysis.Pass) (any, error) {
	if !emit.Enabled(pass, Rule.ID) {
		return nil, nil
	}
	rep := emit.New(pass, Rule.ID)
	pkg := keyflow.Of(pass)
	model := keymodel.Of(pass)
	// Helpers that return a bare digest (or a keyed MAC) count as one at
	// their call sites: key := hashFields(order.ID, order.Phone).
	helpers := pkg.Summarize(func(f *keyflow.Func, known map[*types.Func]string) string {
		s := slice{model: model}
		for _, r := range f.Results() {
			s.scan(f, r, known)
		}
		switch {
		case s.keyed:
			return keyedSummary
		case len(s.digests) > 0:
			return s.digests[0].name
		}
		return ""
	})
	for _, f := range pkg.WithSinks() {
		for _, sink := range f.Sinks {
			if inboundDedup(sink) || inboundLookup(f, sink) {
				continue
			}
			s := slice{model: model}
			s.scan(f, sink.Value, helpers)
			if s.keyed || len(s.digests) == 0 || composite(f, sink.Value, helpers) {
				continue
			}
			for _, d := range s.digests {
				rep.Report(d.pos, fmt.Sprintf(
					"idempotency key (%s) is a bare %s with no secret: anyone who reproduces the hash can enumerate valid keys; use HMAC-SHA256 with a secret key",
					sink.What, d))
			}
		}
	}
	return nil, nil
}

// inboundDedup reports sinks that deduplicate inbound messages
// (dedupKey, MessageDeduplicationId) rather than key a request to a
// provider: a content digest there is a fingerprint, and nobody outside
// can use it to replay or pre-empt a charge.
func inboundDedup(s keyflow.Sink) bool {
	what := strings.ToLower(s.What)
	return strings.Contains(what, "dedup") && !strings.Contains(what, "idem")
}

const keyedSummary = "\x00keyed"

type digest struct {
	pos  token.Pos
	name string // "sha256"
	via  string // the helper that computes it, if not computed here
}

func (d digest) String() string {
	if d.via != "" {
		return d.name + " digest (computed in " + d.via + ")"
	}
	return d.name + " digest"
}

// slice is what the backward slice of a key (or a helper's result) holds:
// unkeyed digests, and whether any secret or keyed MAC takes part.
type slice struct {
	digests []digest
	keyed   bool
	model   *keymodel.Model
}

// overKey reports a digest whose input holds an idempotency key read from
// a field (uuid.NewSHA1(evt.IdempotencyKey, "credit")): a key derived from
// one drawn at random is as unguessable as it, whatever else is hashed
// beside it. Only the digest's own arguments are read, not what its result
// is stored in.
func overKey(f *keyflow.Func, call *ast.CallExpr, isKey func(string) bool) bool {
	found := false
	for _, arg := range call.Args {
		f.Walk(arg, func(e ast.Expr) bool {
			if sel, ok := e.(*ast.SelectorExpr); ok && isKey(sel.Sel.Name) {
				found = true
			}
			return !found
		})
	}
	return found
}

func (s *slice) scan(f *keyflow.Func, root ast.Expr, helpers map[*types.Func]string) {
	info := f.Info()
	isKey := func(string) bool { return false }
	if s.model != nil {
		isKey = s.model.IsKey
	}
	f.Walk(root, func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.CallExpr:
			fn := keyflow.Callee(info, x)
			if fn == nil || fn.Pkg() == nil {
				return true
			}
			switch h := helpers[fn]; {
			case h == keyedSummary:
				s.keyed = true
			case h != "":
				s.digests = append(s.digests, digest{x.Pos(), h, fn.Name()})
			case isKeyedMAC(fn):
				s.keyed = true
			default:
				if name := digestName(fn); name != "" && !overKey(f, x, isKey) {
					s.digests = append(s.digests, digest{pos: x.Pos(), name: name})
				}
			}
		case *ast.Ident:
			s.keyed = s.keyed || secretName.MatchString(x.Name)
		case *ast.SelectorExpr:
			s.keyed = s.keyed || secretName.MatchString(x.Sel.Name)
		}
		return true
	})
}

// secretName marks identifiers that hold key material: a digest over them
// is keyed, not bare.
var secretName = regexp.MustCompile(`(?i)(secret|pepper|hmac|signing_?key|mac_?key|private_?key)`)

// isKeyedMAC reports constructors of keyed MACs.
func isKeyedMAC(fn *types.Func) bool {
	path := fn.Pkg().Path()
	switch {
	case path == "crypto/hmac" && fn.Name() == "New":
		return true
	case path == "golang.org/x/crypto/blake2b" || path == "golang.org/x/crypto/blake2s":
		// blake2b.New256(key) with a non-nil key is a MAC.
		return strings.HasPrefix(fn.Name(), "New")
	case path == "golang.org/x/crypto/hkdf", path == "crypto/hkdf":
		return true
	}
	return false
}

// digestName returns the algorithm of an unkeyed digest constructor or
// one-shot function, or "".
func digestName(fn *types.Func) string {
	path, name := fn.Pkg().Path(), fn.Name()
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		return "" // h.Sum(nil) is the digest already counted at sha256.New
	}
	switch path {
	case "crypto/sha256", "crypto/sha512", "crypto/sha1", "crypto/md5", "crypto/sha3",
		"golang.org/x/crypto/sha3", "golang.org/x/crypto/md4", "golang.org/x/crypto/ripemd160":
		if strings.HasPrefix(name, "Sum") || strings.HasPrefix(name, "New") {
			return pathBase(path)
		}
	case "hash/fnv", "hash/crc32", "hash/crc64", "hash/adler32", "hash/maphash",
		"github.com/cespare/xxhash", "github.com/cespare/xxhash/v2", "github.com/zeebo/xxh3":
		if strings.HasPrefix(name, "New") || strings.HasPrefix(name, "Sum") || strings.HasPrefix(name, "Checksum") || strings.HasPrefix(name, "Hash") {
			return pathBase(path)
		}
	case "github.com/google/uuid", "github.com/gofrs/uuid", "github.com/gofrs/uuid/v5", "github.com/satori/go.uuid":
		switch name {
		case "NewSHA1", "NewMD5", "NewV5", "NewV3":
			return "name-based uuid (" + name + ")"
		}
	}
	return ""
}

func pathBase(path string) string {
	if i := strings.LastIndex(path, "/"); i >= 0 {
		path = path[i+1:]
	}
	if path == "v2" {
		return "xxhash"
	}
	return path
}

// composite reports a key built from parts of which some are a digest and
// some vary and are readable (a field, a parameter: tenant + ":" +
// hex(sha256(items))): the digest shortens one part of the key, and the
// key is no bare digest. The Python and TypeScript engine decides the same.
func composite(f *keyflow.Func, key ast.Expr, helpers map[*types.Func]string) bool {
	found := false
	f.Walk(key, func(e ast.Expr) bool {
		if found || isDigestCall(f.Info(), e, helpers) {
			return false // what a digest hashes is no part of the key
		}
		parts := joinedParts(f.Info(), e)
		if parts == nil {
			return true
		}
		var digested, readable bool
		for _, p := range parts {
			if tv, ok := f.Info().Types[p]; ok && tv.Value != nil || enumTag(f.Info(), p) {
				continue // a constant separator or prefix, or a kind's tag
			}
			var s slice
			s.scan(f, p, helpers)
			if len(s.digests) > 0 {
				digested = true
			} else {
				readable = true
			}
		}
		found = digested && readable
		return !found && !digested
	})
	return found
}

// enumTag reports a part that is one of a few declared values: a value of
// a defined type whose package declares constants of it (string(msg.Type),
// a kind like CallbackStump), converted or not. It tags the key with a
// kind; it does not tell one key from another within the kind.
func enumTag(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 1 {
		if tv, ok := info.Types[c.Fun]; ok && tv.IsType() {
			e = ast.Unparen(c.Args[0]) // string(kind)
		}
	}
	named, ok := types.Unalias(info.TypeOf(e)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	if _, basic := named.Underlying().(*types.Basic); !basic {
		return false
	}
	scope := named.Obj().Pkg().Scope()
	for _, name := range scope.Names() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), named) {
			return true
		}
	}
	return false
}

func isDigestCall(info *types.Info, e ast.Expr, helpers map[*types.Func]string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := keyflow.Callee(info, c)
	return fn != nil && fn.Pkg() != nil && (digestName(fn) != "" || helpers[fn] != "")
}

// joinedParts is the operands that e joins into one string: the
// arguments of fmt.Sprint/Sprintf/Sprintln (without the format) and
// strings.Join's elements written in place, or both sides of a string +;
// nil when e joins nothing.
func joinedParts(info *types.Info, e ast.Expr) []ast.Expr {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return nil
		}
		if t, ok := info.Types[x].Type.Underlying().(*types.Basic); ok && t.Info()&types.IsString != 0 {
			return append(stringOperands(x.X), stringOperands(x.Y)...)
		}
	case *ast.CallExpr:
		fn := keyflow.Callee(info, x)
		if fn == nil || fn.Pkg() == nil {
			return nil
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "fmt.Sprintf":
			if len(x.Args) > 2 {
				return x.Args[1:]
			}
		case "fmt.Sprint", "fmt.Sprintln":
			if len(x.Args) > 1 {
				return x.Args
			}
		case "strings.Join":
			if lit, ok := x.Args[0].(*ast.CompositeLit); ok && len(lit.Elts) > 1 {
				return lit.Elts
			}
		}
	}
	return nil
}

// stringOperands flattens a chain of string +.
func stringOperands(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
		return append(stringOperands(b.X), stringOperands(b.Y)...)
	}
	return []ast.Expr{e}
}
