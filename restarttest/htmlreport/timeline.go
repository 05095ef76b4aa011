package htmlreport

import (
	"fmt"

	"github.com/idemcheck/idemcheck/restarttest"
)

// The timeline's geometry, in SVG user units (pixels at 100%).
const (
	labelWidth = 190 // lane names
	plotWidth  = 760
	rightPad   = 30
	laneHeight = 36
	axisHeight = 26
	breakRow   = 18 // one line of failing-check labels above the lanes
)

// timeline is one round drawn as lanes over time: an attempt's bar from its
// start to its end, marks at its effect requests and its kill; the commits
// on the database lane; the rendezvous holds; a red line where a check broke.
type timeline struct {
	Width, Height int
	Top           int // y of the first lane
	PlotLeft      int
	PlotRight     int
	Lanes         []lane
	Ticks         []tick
	Breaks        []breakLine
	MaxMS         int64
}

type lane struct {
	Y, Mid int
	Label  string
	Bars   []bar
	Marks  []mark
}

type bar struct {
	X, W  int
	Class string
	Title string
}

// mark is a point on a lane: Shape is effect (filled circle), ring
// (executed, its answer withheld), kill (a cross), commit (a diamond), or
// label (a rendezvous hold's text, level with its band).
type mark struct {
	X      int
	Shape  string
	Class  string
	Label  string
	Title  string
	Points string // commit: the diamond's polygon
	Anchor string // text-anchor of the label
	LabelX int
}

type tick struct {
	X     int
	Label string
}

// breakLine is a failing check drawn at the moment it broke.
type breakLine struct {
	X, LabelY int
	Label     string
	Anchor    string
}

func newTimeline(r restarttest.Round, evs []event, cs []checkView) timeline {
	maxMS := max(r.DurationMS, 1)
	for _, e := range evs {
		maxMS = max(maxMS, e.AtMS)
	}
	failing := 0
	for _, c := range cs {
		if c.AtID != "" {
			failing++
		}
	}
	t := timeline{PlotLeft: labelWidth, PlotRight: labelWidth + plotWidth, MaxMS: maxMS, Top: 8 + failing*breakRow}
	x := func(ms int64) int { return labelWidth + int(ms*plotWidth/maxMS) }
	index := map[string]int{}
	laneFor := func(name string) *lane {
		i, ok := index[name]
		if !ok {
			i = len(t.Lanes)
			index[name] = i
			y := t.Top + i*laneHeight
			t.Lanes = append(t.Lanes, lane{Y: y, Mid: y + laneHeight/2, Label: name})
		}
		return &t.Lanes[i]
	}
	multi := byDelivery(r)
	for _, a := range r.Attempts {
		l := laneFor(laneName(a, multi))
		l.Bars = append(l.Bars, bar{X: x(a.StartMS), W: max(x(a.StartMS+a.DurationMS)-x(a.StartMS), 2),
			Class: "outcome-" + a.Outcome, Title: fmt.Sprintf("%s, %d–%dms: %s", l.Label, a.StartMS, a.StartMS+a.DurationMS, a.Describe())})
	}
	for _, rv := range r.Rendezvous {
		l := laneFor(rendezvousLane(rv))
		from, to := x(rv.HeldMS), x(rv.HeldMS+rv.WaitedMS)
		text := fmt.Sprintf("held %dms, %d of %d released together", rv.WaitedMS, rv.Arrived, rv.Deliveries)
		class := "ok"
		if !rv.Reached {
			text, class = fmt.Sprintf("held %dms, released with %d of %d", rv.WaitedMS, rv.Arrived, rv.Deliveries), "warn"
		}
		l.Bars = append(l.Bars, bar{X: from, W: max(to-from, 3), Class: "hold", Title: text})
		label := mark{Shape: "label", Class: class, Label: text, Anchor: "start", LabelX: to + 6}
		if to > t.PlotRight-260 {
			label.Anchor, label.LabelX = "end", from-6
		}
		l.Marks = append(l.Marks, label)
	}
	for _, e := range evs {
		if e.Kind == kindRoundOver || e.Kind == kindStart || e.Kind == kindHold || e.Kind == kindRelease {
			continue
		}
		l := laneFor(e.Lane)
		if m, ok := markOf(e, x(e.AtMS), l.Mid); ok {
			l.Marks = append(l.Marks, m)
		}
	}
	t.Height = t.Top + len(t.Lanes)*laneHeight + axisHeight
	t.Width = labelWidth + plotWidth + rightPad
	t.Ticks = ticks(maxMS, x)
	row := 0
	for _, c := range cs {
		if c.AtID == "" {
			continue
		}
		bx := x(c.AtMS)
		b := breakLine{X: bx, LabelY: 8 + row*breakRow + 12, Label: "✗ " + c.Name + " broke here", Anchor: "start"}
		if bx > t.PlotRight-200 {
			b.Anchor = "end"
		}
		t.Breaks = append(t.Breaks, b)
		row++
	}
	return t
}

// markOf draws an event on its lane; attempt ends are drawn only when they
// are a kill (the bar shows every end).
func markOf(e event, x, y int) (mark, bool) {
	m := mark{X: x, Class: e.Class, Title: fmt.Sprintf("%dms %s %s %s", e.AtMS, e.Text, e.Code, e.Detail), Anchor: "middle", LabelX: x}
	switch e.Kind {
	case kindRequest:
		m.Shape, m.Label = "effect", e.Code
		if e.withheld {
			m.Shape = "ring"
		}
	case kindCommit:
		m.Shape = "commit"
		m.Points = fmt.Sprintf("%d,%d %d,%d %d,%d %d,%d", x, y-6, x+6, y, x, y+6, x-6, y)
	case kindEnd:
		if e.Class != "kill" {
			return m, false
		}
		// Beside the cross, level with it: a request's key label sits
		// above the lane's marks.
		m.Shape, m.Label, m.Anchor, m.LabelX = "kill", e.Text, "start", x+10
	default:
		return m, false
	}
	return m, true
}

// ticks are about six round numbers of milliseconds along the axis.
func ticks(maxMS int64, x func(int64) int) []tick {
	step := int64(1)
	for _, s := range []int64{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 20000, 30000, 60000} {
		step = s
		if maxMS/s <= 6 {
			break
		}
	}
	var out []tick
	for ms := int64(0); ms <= maxMS; ms += step {
		out = append(out, tick{X: x(ms), Label: msLabel(ms)})
	}
	return out
}

func msLabel(ms int64) string {
	if ms >= 1000 && ms%100 == 0 {
		return fmt.Sprintf("%gs", float64(ms)/1000)
	}
	return fmt.Sprintf("%dms", ms)
}
