package polyglot

import (
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"slices"

	"path/filepath"
	"strings"
	"sync"

	"github.com/tailscale/hujson"

	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

// resolver finds the project file an import names: Python modules by
// their dotted path from the source root (the first directory up without
// an __init__.py) or relative to the package, TypeScript and JavaScript
// modules by relative path or by a tsconfig.json paths alias.
type resolver struct {
	byPath   map[string]*ir.File
	pyModule map[string]*ir.File
	// pyTail: the files whose path ends in a dotted name's directories
	// (shared/providers/base.py for shared.providers.base), by that name.
	pyTail   map[string][]*ir.File
	mu       sync.Mutex
	tsconfig map[string]*tsPaths // by directory
	// pkgImports: the nearest package.json's "imports" (Node's subpath
	// imports, #connectors/*), by directory.
	pkgImports map[string]*subpathImports
	pyDeps     map[string]map[string]bool // declared distributions, by directory
}

type tsPaths struct {
	base      string // baseUrl: where bare module names are looked up; "" for none
	pathsBase string // where the paths' targets are
	paths     map[string][]string
}

func newResolver(files []*ir.File) *resolver {
	r := &resolver{byPath: map[string]*ir.File{}, pyModule: map[string]*ir.File{}, pyTail: map[string][]*ir.File{}, tsconfig: map[string]*tsPaths{}, pkgImports: map[string]*subpathImports{}, pyDeps: map[string]map[string]bool{}}
	dirs := pyDirs{}
	for _, f := range files {
		r.byPath[f.Path] = f
		if f.Lang == "python" {
			for _, m := range pyModuleNames(f.Path, dirs) {
				if _, dup := r.pyModule[m]; !dup {
					r.pyModule[m] = f
				}
			}
			for _, t := range pathTails(f.Path) {
				r.pyTail[t] = append(r.pyTail[t], f)
			}
		}
	}
	return r
}

// pyModuleNames are the dotted names a Python file is imported by: from
// the first directory up that is not a package, and from any package
// directory that is also a project's root (backend/ holding its own
// __init__.py beside manage.py or pyproject.toml, where the service runs:
// from payments.stripe_api import …).
func pyModuleNames(path string, dirs pyDirs) []string {
	dir, base := filepath.Split(path)
	name := strings.TrimSuffix(base, ".py")
	parts := []string{}
	if name != "__init__" {
		parts = append(parts, name)
	}
	var roots []int // len(parts) when a package directory is a project root
	dir = filepath.Clean(dir)
	for {
		d := dirs.at(dir)
		if !d.pkg {
			break
		}
		if len(parts) > 0 && d.root {
			roots = append(roots, len(parts))
		}
		parts = append([]string{filepath.Base(dir)}, parts...)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if len(parts) == 0 {
		return nil
	}
	names := []string{strings.Join(parts, ".")}
	for _, n := range roots {
		names = append(names, strings.Join(parts[len(parts)-n:], "."))
	}
	return names
}

// pathTails are the dotted names of two or more parts that a Python
// file's path ends in: a.b, x.a.b for x/a/b.py; a, x.a for x/a/__init__.py.
func pathTails(path string) []string {
	parts := strings.Split(filepath.ToSlash(strings.TrimSuffix(path, ".py")), "/")
	if parts[len(parts)-1] == "__init__" {
		parts = parts[:len(parts)-1]
	}
	var tails []string
	for i := len(parts) - 2; i >= 0; i-- {
		tails = append(tails, strings.Join(parts[i:], "."))
	}
	return tails
}

// pyDirs is what is known of the directories Python files sit under,
// looked up once for all the files below each.
type pyDirs map[string]pyDir

type pyDir struct {
	pkg  bool // it holds an __init__.py
	root bool // a package the service runs from: manage.py or packaging metadata beside it
}

func (d pyDirs) at(dir string) pyDir {
	if v, ok := d[dir]; ok {
		return v
	}
	v := pyDir{pkg: exists(dir, "__init__.py")}
	v.root = v.pkg && (exists(dir, "manage.py") || exists(dir, "pyproject.toml") || exists(dir, "setup.py") || exists(dir, "setup.cfg"))
	d[dir] = v
	return v
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

func (r *resolver) resolve(from *ir.File, module string) *ir.File {
	if from.Lang == "python" {
		return r.resolvePython(from, module)
	}
	return r.resolveTS(from, module)
}

func (r *resolver) resolvePython(from *ir.File, module string) *ir.File {
	if !strings.HasPrefix(module, ".") {
		top, _, _ := strings.Cut(module, ".")
		if r.declaresDependency(filepath.Dir(from.Path), top) {
			// The service installs a distribution of that name: its
			// import is the installed package, whatever project directory
			// shares the name (a service kept in a directory named stripe/).
			return nil
		}
		if f := r.pyModule[module]; f != nil {
			return f
		}
		// A namespace package (a directory without __init__.py) or a
		// source root the service adds to its path (src/): the one file
		// whose path ends in the name's directories.
		if tails := r.pyTail[module]; len(tails) == 1 {
			return tails[0]
		}
		return nil
	}
	level := len(module) - len(strings.TrimLeft(module, "."))
	rest := strings.TrimLeft(module, ".")
	dir := filepath.Dir(from.Path)
	for i := 1; i < level; i++ {
		dir = filepath.Dir(dir)
	}
	p := dir
	if rest != "" {
		p = filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(rest, ".", "/")))
	}
	for _, cand := range []string{p + ".py", filepath.Join(p, "__init__.py")} {
		if f := r.byPath[cand]; f != nil {
			return f
		}
	}
	return nil
}

var tsExts = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

func (r *resolver) resolveTS(from *ir.File, module string) *ir.File {
	if strings.HasPrefix(module, "./") || strings.HasPrefix(module, "../") {
		return r.tsFile(filepath.Join(filepath.Dir(from.Path), filepath.FromSlash(module)))
	}
	if strings.HasPrefix(module, "#") {
		return r.subpathImport(from, module)
	}
	cfg := r.tsConfigFor(filepath.Dir(from.Path))
	if cfg == nil {
		return nil
	}
	if f := r.firstTarget(cfg.pathsBase, cfg.paths, module); f != nil {
		return f
	}
	if cfg.base != "" {
		return r.tsFile(filepath.Join(cfg.base, filepath.FromSlash(module)))
	}
	return nil
}

// subpathImport resolves a Node subpath import (#connectors/stripe/index.js)
// by the nearest package.json's "imports": an exact key or one with a *,
// whose targets (a path, or conditions naming paths: dev-import,
// default, …) are tried in turn for a file of the project.
func (r *resolver) subpathImport(from *ir.File, module string) *ir.File {
	imports := nearest(&r.mu, r.pkgImports, filepath.Dir(from.Path), func(d string) (*subpathImports, bool) {
		m, ok := readPackageImports(d)
		return m, ok
	})
	if imports == nil {
		return nil
	}
	return r.firstTarget(imports.dir, imports.targets, module)
}

// subpathImports are a package.json's "imports" and its directory.
type subpathImports struct {
	dir     string
	targets map[string][]string // each pattern's target paths
}

// readPackageImports reads the "imports" of dir's package.json: each
// pattern's target paths, conditions flattened in a stable order.
func readPackageImports(dir string) (*subpathImports, bool) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, false
	}
	var pkg struct {
		Imports map[string]any `json:"imports"`
	}
	if json.Unmarshal(data, &pkg) != nil || len(pkg.Imports) == 0 {
		return nil, false
	}
	out := &subpathImports{dir: dir, targets: map[string][]string{}}
	for pat, t := range pkg.Imports {
		out.targets[pat] = importTargets(t, 0)
	}
	return out, true
}

func importTargets(t any, depth int) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			out = append(out, importTargets(x, depth+1)...)
		}
		return out
	case map[string]any:
		if depth > 4 {
			return nil
		}
		keys := slices.Sorted(maps.Keys(t))
		var out []string
		for _, k := range keys {
			out = append(out, importTargets(t[k], depth+1)...)
		}
		return out
	}
	return nil
}

// firstTarget is the first project file among the targets, under base,
// of the patterns module matches (tsconfig.json's paths, package.json's
// imports): an exact key, or a prefix ending in * whose rest replaces the
// target's *. The longest prefix is tried first, as TypeScript and Node
// choose, so the answer does not depend on the map's order.
func (r *resolver) firstTarget(base string, patterns map[string][]string, module string) *ir.File {
	type match struct{ prefix, pat string }
	var ms []match
	for pat := range patterns {
		prefix, wild := strings.CutSuffix(pat, "*")
		if wild && strings.HasPrefix(module, prefix) || !wild && module == pat {
			ms = append(ms, match{prefix, pat})
		}
	}
	slices.SortFunc(ms, func(a, b match) int {
		if n := len(b.prefix) - len(a.prefix); n != 0 {
			return n
		}
		return strings.Compare(a.pat, b.pat)
	})
	for _, m := range ms {
		rest := strings.TrimPrefix(module, m.prefix)
		for _, t := range patterns[m.pat] {
			if f := r.tsFile(filepath.Join(base, filepath.FromSlash(strings.Replace(t, "*", rest, 1)))); f != nil {
				return f
			}
		}
	}
	return nil
}

func (r *resolver) tsFile(p string) *ir.File {
	if f := r.byPath[p]; f != nil {
		return f
	}
	stem := p
	for _, ext := range []string{".js", ".mjs", ".cjs", ".jsx"} {
		stem = strings.TrimSuffix(stem, ext)
	}
	for _, ext := range tsExts {
		if f := r.byPath[stem+ext]; f != nil {
			return f
		}
	}
	for _, ext := range tsExts {
		if f := r.byPath[filepath.Join(p, "index"+ext)]; f != nil {
			return f
		}
	}
	return nil
}

// tsConfigFor reads the nearest tsconfig.json or jsconfig.json up from dir.
func (r *resolver) tsConfigFor(dir string) *tsPaths {
	return nearest(&r.mu, r.tsconfig, dir, func(d string) (*tsPaths, bool) {
		c := readTSConfig(d)
		return c, c != nil
	})
}

// nearest is what read finds in dir or in the nearest directory above it
// that has the file (the zero value when none has), remembered in cache for
// every directory on the way: a tsconfig.json, a service's requirements.
func nearest[T any](mu *sync.Mutex, cache map[string]T, dir string, read func(string) (T, bool)) T {
	mu.Lock()
	defer mu.Unlock()
	var chain []string
	var found T
	for d := dir; ; d = filepath.Dir(d) {
		if c, ok := cache[d]; ok {
			found = c
			break
		}
		chain = append(chain, d)
		if c, ok := read(d); ok {
			found = c
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, d := range chain {
		cache[d] = found
	}
	return found
}

func readTSConfig(dir string) *tsPaths {
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		// tsconfig.json is JSON with comments and trailing commas; a
		// "**/*.ts" glob in it is a string, not a comment's start.
		data, err = hujson.Standardize(data)
		if err != nil {
			return &tsPaths{}
		}
		var cfg struct {
			CompilerOptions struct {
				BaseURL string              `json:"baseUrl"`
				Paths   map[string][]string `json:"paths"`
			} `json:"compilerOptions"`
		}
		if json.Unmarshal(data, &cfg) != nil {
			return &tsPaths{}
		}
		base := ""
		if cfg.CompilerOptions.BaseURL != "" || len(cfg.CompilerOptions.Paths) > 0 {
			base = filepath.Join(dir, filepath.FromSlash(cfg.CompilerOptions.BaseURL))
		}
		paths := frameworkAliases(dir, cfg.CompilerOptions.Paths)
		pathsBase := base
		if pathsBase == "" {
			pathsBase = dir
		}
		return &tsPaths{base: base, pathsBase: pathsBase, paths: paths}
	}
	return nil
}

// declaresDependency reports whether the nearest requirements.txt or
// pyproject.toml at or above dir declares the distribution name.
func (r *resolver) declaresDependency(dir, name string) bool {
	deps := r.pyDepsFor(dir)
	return deps[normalizeDistribution(name)]
}

func (r *resolver) pyDepsFor(dir string) map[string]bool {
	return nearest(&r.mu, r.pyDeps, dir, func(d string) (map[string]bool, bool) {
		deps := readPyDeps(d)
		return deps, deps != nil
	})
}

// requirementName is a requirement's distribution name: what precedes a
// version, extras, marker or URL ("stripe==7.5.0", "celery[redis]>=5").
var requirementName = regexp.MustCompile(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)`)

// readPyDeps reads the distributions dir's requirements.txt or
// pyproject.toml names; nil when dir has neither. The pyproject reading is
// loose (every quoted requirement string and every key of a dependencies
// table): it only has to tell whether a name is declared.
func readPyDeps(dir string) map[string]bool {
	var lines []string
	if data, err := os.ReadFile(filepath.Join(dir, "requirements.txt")); err == nil {
		lines = strings.Split(string(data), "\n")
	} else if data, err := os.ReadFile(filepath.Join(dir, "pyproject.toml")); err == nil {
		lines = pyprojectRequirements(string(data))
	} else {
		return nil
	}
	deps := map[string]bool{}
	for _, l := range lines {
		l, _, _ = strings.Cut(l, "#")
		if strings.HasPrefix(strings.TrimSpace(l), "-") {
			continue // -r other.txt, -e ., --index-url
		}
		if m := requirementName.FindStringSubmatch(l); m != nil {
			deps[normalizeDistribution(m[1])] = true
		}
	}
	return deps
}

// pyprojectRequirements are the requirement strings of a pyproject.toml:
// the quoted items of dependencies arrays and the keys of
// [tool.poetry.dependencies]-style tables.
func pyprojectRequirements(toml string) []string {
	var out []string
	inTable, inArray := false, false
	for _, l := range strings.Split(toml, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "["):
			inTable = strings.HasSuffix(strings.Trim(t, "[]"), "dependencies")
			inArray = false
		case inArray || strings.Contains(t, "dependencies") && strings.Contains(t, "["):
			inArray = !strings.Contains(t, "]")
			for _, q := range quoted.FindAllStringSubmatch(t, -1) {
				out = append(out, q[1])
			}
		case inTable && strings.Contains(t, "="):
			k, _, _ := strings.Cut(t, "=")
			out = append(out, strings.Trim(strings.TrimSpace(k), `"'`))
		}
	}
	return out
}

var quoted = regexp.MustCompile(`"([^"]+)"`)

// normalizeDistribution folds a distribution or import name the way
// package indexes compare them (PEP 503): case, and runs of -, _ and . .
func normalizeDistribution(name string) string {
	return strings.ToLower(nameSeparators.ReplaceAllString(name, "_"))
}

var nameSeparators = regexp.MustCompile(`[-_.]+`)

// frameworkAliases adds the aliases a framework declares in a tsconfig it
// generates at build time, which a checkout does not have: SvelteKit's
// $lib is src/lib (its tsconfig extends .svelte-kit/tsconfig.json).
func frameworkAliases(dir string, paths map[string][]string) map[string][]string {
	if _, ok := paths["$lib/*"]; ok || !svelteKit(dir) {
		return paths
	}
	out := map[string][]string{"$lib": {"src/lib"}, "$lib/*": {"src/lib/*"}}
	for k, v := range paths {
		out[k] = v
	}
	return out
}

func svelteKit(dir string) bool {
	for _, name := range []string{"svelte.config.js", "svelte.config.mjs", "svelte.config.ts"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}
