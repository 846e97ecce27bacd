package entail

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"grundy/stdlib/progress"
)

// HeroTable is the value of a single heap of each game for heaps 1..n (the
// text's "hero table"), each value certified (see Position.Value). With no
// games it tabulates Top Entails and entailing Nim, as the text does. The
// table shows itself as text and HTML; plots.LoonyTable draws it.
func HeroTable(n int, games ...*Game) (*ValueTable, error) {
	if n < 1 {
		return nil, fmt.Errorf("entail: HeroTable(%d): give the largest heap, at least 1", n)
	}
	if len(games) == 0 {
		games = []*Game{TopEntailsGame, EntailingNimGame}
	}
	t := ValueTable{Heaps: make([]int, n)}
	for i := range t.Heaps {
		t.Heaps[i] = i + 1
	}
	task := progress.Start("hero table", int64(n*len(games)))
	for _, g := range games {
		if g == nil {
			err := fmt.Errorf("entail: HeroTable: a nil game; use entail.TopEntailsGame, entail.EntailingNimGame, entail.NimGame or entail.NewGame")
			task.Done(err)
			return nil, err
		}
		t.Games = append(t.Games, g.Name())
		row := make([]Value, n)
		for i := range row {
			v, err := g.Heap(i + 1).Value()
			if err == nil {
				err = task.Add(1)
			}
			if err != nil {
				task.Done(err)
				return nil, err
			}
			row[i] = v
		}
		t.Values = append(t.Values, row)
	}
	task.Done(nil)
	return &t, nil
}

// At is game g's value (by row index) at heap h, and false when h is not in
// the table.
func (t ValueTable) At(g, h int) (Value, bool) {
	if g < 0 || g >= len(t.Values) {
		return Value{}, false
	}
	for i, x := range t.Heaps {
		if x == h && i < len(t.Values[g]) {
			return t.Values[g][i], true
		}
	}
	return Value{}, false
}

// String prints one row per heap and one column per game, "loony" spelled
// out so that it cannot be read as a nimber.
func (t ValueTable) String() string {
	cols := append([]string{"heap"}, t.Games...)
	width := make([]int, len(cols))
	for i, c := range cols {
		width[i] = len(c)
	}
	cells := make([][]string, len(t.Heaps))
	for r, h := range t.Heaps {
		row := []string{strconv.Itoa(h)}
		for g := range t.Games {
			s := ""
			if r < len(t.Values[g]) {
				s = t.Values[g][r].String()
			}
			row = append(row, s)
		}
		for i, c := range row {
			width[i] = max(width[i], len(c))
		}
		cells[r] = row
	}
	var b strings.Builder
	line := func(row []string) {
		for i, c := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			if i == 0 {
				b.WriteString(strings.Repeat(" ", width[i]-len(c)) + c)
			} else if i < len(row)-1 {
				b.WriteString(c + strings.Repeat(" ", width[i]-len(c)))
			} else {
				b.WriteString(c)
			}
		}
		b.WriteString("\n")
	}
	line(cols)
	for _, row := range cells {
		line(row)
	}
	return strings.TrimRight(b.String(), "\n")
}

// HTML renders the table for a notebook: loony cells shaded and bold, so a
// loony heap stands out from every nimber at a glance.
func (t ValueTable) HTML() string {
	var b strings.Builder
	b.WriteString(`<table style="border-collapse:collapse;font-family:monospace">`)
	b.WriteString(`<thead><tr><th style="padding:2px 8px;text-align:right">heap</th>`)
	for _, g := range t.Games {
		b.WriteString(`<th style="padding:2px 8px">` + html.EscapeString(g) + `</th>`)
	}
	b.WriteString("</tr></thead><tbody>")
	for r, h := range t.Heaps {
		b.WriteString(`<tr><td style="padding:2px 8px;text-align:right">` + strconv.Itoa(h) + "</td>")
		for g := range t.Games {
			if r >= len(t.Values[g]) {
				b.WriteString("<td></td>")
				continue
			}
			v := t.Values[g][r]
			if v.Loony {
				b.WriteString(`<td style="padding:2px 8px;text-align:center;background:#f4c542;font-weight:bold" title="loony: the mover wins beside every Nim heap">loony</td>`)
			} else {
				b.WriteString(`<td style="padding:2px 8px;text-align:center">` + html.EscapeString(v.String()) + "</td>")
			}
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}
