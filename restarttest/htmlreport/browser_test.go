//go:build unix

package htmlreport

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/internal/procgroup"
	"github.com/idemcheck/idemcheck/internal/testenv"
	"github.com/idemcheck/idemcheck/restarttest"
	"github.com/idemcheck/idemcheck/restarttest/pgembed"
)

// TestReportInBrowser runs restart-test for real (a handler that draws a
// fresh key per attempt: the clean round passes, the kill at the response
// and the concurrent round charge twice), writes the HTML report, and opens
// it in headless Chromium: the DOM it built and a screenshot.
func TestReportInBrowser(t *testing.T) {
	testenv.SkipIfShort(t, "runs a handler against PostgreSQL and opens Chromium")
	browser := chromium(t)
	rep := freshKeyRun(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := runBrowser(t, browser, "--dump-dom", "file://"+file)

	t.Run("rounds", func(t *testing.T) {
		got := regexp.MustCompile(`<section class="round (pass|fail)" id="round-(\d+)" data-kill-point="([^"]+)"`).FindAllStringSubmatch(dom, -1)
		var rounds []string
		for _, m := range got {
			rounds = append(rounds, m[3]+" "+m[1])
		}
		want := []string{"clean (no kill) pass", "kill at response fail", "2 deliveries at once fail"}
		if strings.Join(rounds, "; ") != strings.Join(want, "; ") {
			t.Errorf("rounds in the DOM: %q, want %q", rounds, want)
		}
		if n := strings.Count(dom, "<svg class=\"timeline\""); n != 3 {
			t.Errorf("%d timelines, want one per round", n)
		}
	})

	t.Run("failing check next to its moment", func(t *testing.T) {
		response := section(t, dom, 2)
		// The row of the second charge, then the rows of the checks that
		// broke there.
		row := regexp.MustCompile(`(?s)<tr id="round-2-event-\d+" class="[^"]*has-broken">(.*?)</tr>\s*((?:<tr class="broke" data-check="[^"]+">.*?</tr>\s*)+)`).FindStringSubmatch(response)
		if row == nil {
			t.Fatalf("round 2: no event row followed by its broken checks in\n%s", response)
		}
		if !strings.Contains(row[1], "executed ch_2") {
			t.Errorf("round 2: the checks broke at %q, want the second charge (ch_2)", text(row[1]))
		}
		for _, want := range []string{`data-check="effect-once"`, "duplicated charge (2 effects", `data-check="key-stable"`, "2 different keys"} {
			if !strings.Contains(row[2], want) {
				t.Errorf("round 2: %q is not next to the second charge: %q", want, text(row[2]))
			}
		}
		// The timeline draws the break at that moment, and the kill.
		for _, want := range []string{"✗ effect-once broke here", "killed at response"} {
			if !strings.Contains(response, want) {
				t.Errorf("round 2's timeline lacks %q", want)
			}
		}
		if clean := section(t, dom, 1); strings.Contains(clean, `class="broke"`) {
			t.Error("the clean round passed, yet shows a broken check")
		}
		if !strings.Contains(section(t, dom, 3), "released together") {
			t.Error("round 3 (concurrent): no rendezvous hold on its timeline")
		}
	})

	t.Run("self-contained", func(t *testing.T) {
		for _, pat := range []string{`\ssrc=`, `<link\b`, `<script\b`, `<iframe\b`, `<img\b`, `url\(`, `@import`, `\shref="[^#]`, `https?://`} {
			if loc := regexp.MustCompile(pat).FindStringIndex(dom); loc != nil {
				t.Errorf("the report refers to something outside itself (%s): …%s…", pat, dom[max(loc[0]-60, 0):min(loc[1]+60, len(dom))])
			}
		}
	})

	t.Run("screenshot", func(t *testing.T) {
		shot := filepath.Join(dir, "report.png")
		runBrowser(t, browser, "--screenshot="+shot, "--window-size=1100,1400", "--hide-scrollbars", "file://"+file)
		f, err := os.Open(shot)
		if err != nil {
			t.Fatalf("no screenshot: %v", err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if b := img.Bounds(); b.Dx() != 1100 || b.Dy() != 1400 {
			t.Errorf("screenshot is %v, want 1100×1400", b.Size())
		}
		// The verdict colours were painted: the red of the failing rounds'
		// border and summary, the green of the passing one.
		if red, green := countColour(img, 0xcf, 0x22, 0x2e), countColour(img, 0x1a, 0x7f, 0x37); red < 500 || green < 500 {
			t.Errorf("screenshot has %d fail-red and %d pass-green pixels; want the verdicts coloured", red, green)
		}
	})
}

// freshKeyRun is a real run of testdata/restart/freshkey: clean, killed at
// the response, two deliveries at once.
func freshKeyRun(t *testing.T) *restarttest.Report {
	t.Helper()
	dsn := testDatabase(t)
	handler := filepath.Join(t.TempDir(), "freshkey")
	if err := testenv.BuildProgram("../..", "./testdata/restart/freshkey", handler); err != nil {
		t.Fatal(err)
	}
	setup, err := os.ReadFile("../../testdata/restart/freshkey/setup.sql")
	if err != nil {
		t.Fatal(err)
	}
	msg, err := os.ReadFile("../../testdata/restart/message.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := restarttest.Run(ctx, restarttest.Config{
		Handler: handler, Message: msg, Setup: string(setup), DSN: dsn,
		KillPoints: []restarttest.KillPoint{{Kind: restarttest.KillNone}, {Kind: restarttest.KillResponse}, {Kind: restarttest.KillConcurrent, N: 2}},
	})
	if err != nil {
		t.Fatalf("restart-test: %v", err)
	}
	return rep
}

// testDatabase is IDEMCHECK_TEST_DATABASE, else an embedded PostgreSQL.
func testDatabase(t *testing.T) string {
	t.Helper()
	if v, ok := os.LookupEnv("IDEMCHECK_TEST_DATABASE"); ok {
		if v == "" {
			return "postgres://"
		}
		return v
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pg, err := pgembed.Start(ctx)
	if err != nil {
		t.Skipf("no PostgreSQL: set IDEMCHECK_TEST_DATABASE or install the server binaries: %v", err)
	}
	t.Cleanup(pg.Stop)
	return pg.DSN()
}

// chromium is Debian's chromium; without it the test skips, except under CI
// (.ci/run installs it), where that is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed under CI: apt-get install -y chromium (.ci/run does)")
	}
	t.Skip("no chromium on PATH: apt-get install chromium to test the HTML report in a browser")
	return ""
}

// runBrowser runs headless Chromium with a fresh profile, as root may, with
// nothing that reaches the network, and returns its stdout. Its process
// group dies with it.
func runBrowser(t *testing.T, browser string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, browser, append(base, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	procgroup.SetParentDeathSignal(cmd.SysProcAttr)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its helpers, if any outlived it
	}
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// section is round n's part of the DOM.
func section(t *testing.T, dom string, n int) string {
	t.Helper()
	start := strings.Index(dom, fmt.Sprintf(`id="round-%d"`, n))
	if start < 0 {
		t.Fatalf("no round %d in the DOM", n)
	}
	end := strings.Index(dom[start:], "</section>")
	if end < 0 {
		t.Fatalf("round %d's section does not end", n)
	}
	return dom[start : start+end]
}

var tags = regexp.MustCompile(`<[^>]+>`)

func text(html string) string {
	return strings.Join(strings.Fields(tags.ReplaceAllString(html, " ")), " ")
}

// countColour counts the pixels within a few levels of one colour.
func countColour(img image.Image, r, g, b uint8) int {
	near := func(a uint32, c uint8) bool { d := int(a>>8) - int(c); return d > -8 && d < 8 }
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if near(pr, r) && near(pg, g) && near(pb, b) {
				n++
			}
		}
	}
	return n
}
