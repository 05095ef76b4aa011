package driver

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/gcexportdata"
)

// unitConfig is the part of go vet's per-package config (see
// unitchecker.Config) that exportStandardTypes reads.
type unitConfig struct {
	ImportPath  string
	GoFiles     []string
	ImportMap   map[string]string
	PackageVetx map[string]string
	VetxOnly    bool
	VetxOutput  string
	GoVersion   string
	ModulePath  string
}

// exportStandardTypes answers go vet for a standard-library package that
// is analyzed only as a dependency: it writes the package's types, with no
// facts, in unitchecker's vetx format, and reports whether it did.
//
// Why: no idemcheck analyzer exports facts about the standard library (the
// key model describes it), so unitchecker's full pass over it (type-check
// every function body, run every analyzer) only produces the types its
// importers need. Those need no function bodies. Standard packages are
// most of every build, and go vet repeats them whenever the tool or its
// flags (the configuration) change, so this is most of a cold lint run.
//
// Anything unexpected returns false, and unitchecker does the work.
func exportStandardTypes(cfgFile string) bool {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return false
	}
	var cfg unitConfig
	if json.Unmarshal(data, &cfg) != nil || !cfg.VetxOnly || cfg.VetxOutput == "" || !isStandardUnit(cfg) {
		return false
	}
	vetx, err := standardVetx(cfg)
	if err != nil {
		return false
	}
	return os.WriteFile(cfg.VetxOutput, vetx, 0o666) == nil
}

// isStandardUnit reports whether every file of the unit is in GOROOT/src.
func isStandardUnit(cfg unitConfig) bool {
	goroot := build.Default.GOROOT
	if cfg.ModulePath != "" || goroot == "" || len(cfg.GoFiles) == 0 {
		return false
	}
	src := filepath.Join(goroot, "src") + string(filepath.Separator)
	for _, f := range cfg.GoFiles {
		if !strings.HasPrefix(f, src) {
			return false
		}
	}
	return true
}

// vetxMagic starts unitchecker's vetx files: magic, the lengths of the
// types and facts sections (little-endian uint32), then the sections.
const vetxMagic = "vetx"

func standardVetx(cfg unitConfig) ([]byte, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range cfg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	imports := map[string]*types.Package{}
	conf := types.Config{
		IgnoreFuncBodies: true,
		Importer:         vetxImporter{cfg: cfg, fset: fset, imports: imports},
		Sizes:            types.SizesFor("gc", build.Default.GOARCH),
		GoVersion:        cfg.GoVersion,
	}
	pkg, err := conf.Check(cfg.ImportPath, fset, files, nil)
	if err != nil {
		return nil, err
	}
	var export bytes.Buffer
	if err := gcexportdata.Write(&export, fset, pkg); err != nil {
		return nil, err
	}
	typesData := bytes.TrimPrefix(export.Bytes(), []byte("i")) // vetx holds the indexed data without its format byte
	var out bytes.Buffer
	out.WriteString(vetxMagic)
	binary.Write(&out, binary.LittleEndian, uint32(len(typesData)))
	binary.Write(&out, binary.LittleEndian, uint32(0)) // no facts
	out.Write(typesData)
	return out.Bytes(), nil
}

// vetxImporter imports a package from the types section of its vetx file.
type vetxImporter struct {
	cfg     unitConfig
	fset    *token.FileSet
	imports map[string]*types.Package
}

func (im vetxImporter) Import(importPath string) (*types.Package, error) {
	path, ok := im.cfg.ImportMap[importPath]
	if !ok {
		return nil, fmt.Errorf("cannot resolve import %q", importPath)
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if pkg, ok := im.imports[path]; ok && pkg.Complete() {
		return pkg, nil
	}
	file, ok := im.cfg.PackageVetx[path]
	if !ok {
		return nil, fmt.Errorf("no vetx file for %q", path)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) < 12 || string(data[:4]) != vetxMagic {
		return nil, errors.New("not a vetx file")
	}
	n := binary.LittleEndian.Uint32(data[4:8])
	if uint64(n) > uint64(len(data)-12) {
		return nil, errors.New("truncated vetx file")
	}
	return gcexportdata.Read(io.MultiReader(strings.NewReader("i"), bytes.NewReader(data[12:12+n])), im.fset, im.imports, path)
}
