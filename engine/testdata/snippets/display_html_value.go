type Table struct{ rows int }
func (t Table) HTML() string { return fmt.Sprintf("<table><tr><td>%d rows</td></tr></table>", t.rows) }
func (t Table) String() string { return fmt.Sprintf("table of %d rows", t.rows) }
Table{3}
// Output:
// [text/html,text/plain] table of 3 rows
