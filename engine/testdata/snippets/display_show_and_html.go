type Badge struct{ label string }
func (b Badge) Markdown() string { return "**" + b.label + "**" }
display.Show(Badge{"P-position"})
display.HTML("<b>bold</b>")
display.Markdown("# Title")
// Output:
// display: text/markdown,text/plain | {P-position}
// display: text/html,text/plain | bold
// display: text/markdown,text/plain | # Title
