// Package ui holds every visual style of idemcheck in one place, so commands
// never call colour functions directly.
package ui

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Styles are the lipgloss styles used by all human output.
type Styles struct {
	Title    lipgloss.Style // section headings
	Header   lipgloss.Style // table headers
	Pass     lipgloss.Style // ✓, PASS, same
	Fail     lipgloss.Style // ✗, FAIL, different, findings
	Warn     lipgloss.Style // warnings that do not fail
	Muted    lipgloss.Style // secondary detail: paths, hints
	Code     lipgloss.Style // code, keys and canonical JSON
	Bold     lipgloss.Style
	Border   lipgloss.Style // table borders
	PassMark string
	FailMark string
}

// New returns the styles for w. With color false every style renders plain
// text, so the same code serves terminals, pipes and NO_COLOR.
func New(w io.Writer, color bool) *Styles {
	r := lipgloss.NewRenderer(w)
	if color {
		r.SetColorProfile(termenv.ANSI256)
	} else {
		r.SetColorProfile(termenv.Ascii)
	}
	return &Styles{
		Title:    r.NewStyle().Bold(true).Foreground(lipgloss.Color("12")),
		Header:   r.NewStyle().Bold(true),
		Pass:     r.NewStyle().Foreground(lipgloss.Color("10")),
		Fail:     r.NewStyle().Bold(true).Foreground(lipgloss.Color("9")),
		Warn:     r.NewStyle().Foreground(lipgloss.Color("11")),
		Muted:    r.NewStyle().Foreground(lipgloss.Color("8")),
		Code:     r.NewStyle().Foreground(lipgloss.Color("14")),
		Bold:     r.NewStyle().Bold(true),
		Border:   r.NewStyle().Foreground(lipgloss.Color("8")),
		PassMark: "✓",
		FailMark: "✗",
	}
}
