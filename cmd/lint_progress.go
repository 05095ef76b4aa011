package cmd

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/idemcheck/idemcheck/analyzer/driver"
)

// lintProgress draws lint's phase on one rewritten stderr line:
// "listing packages…", "building dependencies… 12s", then "analyzing
// packages 12/340". The seconds tick while go vet reports nothing, so a
// cold run (most of it is building) does not look hung.
type lintProgress struct {
	w    io.Writer
	mu   sync.Mutex
	cur  driver.Progress
	from time.Time // when the current phase began
	stop chan struct{}
	done chan struct{}
}

func startLintProgress(w io.Writer) *lintProgress {
	p := &lintProgress{w: w, from: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	go p.tick()
	return p
}

func (p *lintProgress) tick() {
	defer close(p.done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			if p.cur.Phase != driver.PhaseAnalyze {
				p.draw()
			}
			p.mu.Unlock()
		}
	}
}

// update is the driver's Progress callback.
func (p *lintProgress) update(pr driver.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pr.Phase != p.cur.Phase {
		p.from = time.Now()
	}
	p.cur = pr
	p.draw()
}

func (p *lintProgress) draw() {
	fmt.Fprintf(p.w, "\r\x1b[Kidemcheck: %s", progressText(p.cur, time.Since(p.from)))
}

// progressText is the line for a phase that has lasted elapsed.
func progressText(pr driver.Progress, elapsed time.Duration) string {
	secs := ""
	if elapsed >= time.Second {
		secs = fmt.Sprintf(" %ds", int(elapsed.Seconds()))
	}
	switch pr.Phase {
	case driver.PhaseList:
		return "listing packages…" + secs
	case driver.PhaseBuild:
		return fmt.Sprintf("building dependencies…%s (then %s to analyze)", secs, packagesNoun(pr.Total))
	}
	return fmt.Sprintf("analyzing packages %d/%d", pr.Done, pr.Total)
}

// finish stops the clock and clears the line.
func (p *lintProgress) finish() {
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\x1b[K")
}

func packagesNoun(n int) string {
	if n == 1 {
		return "1 package"
	}
	return fmt.Sprintf("%d packages", n)
}
