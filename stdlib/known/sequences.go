package known

// Sequence is a published Grundy-value sequence of a one-heap game: G(0),
// G(1), ... as printed, and the periodicity the literature proves for it
// (Period 0 when none is known). Game is a games.Parse spec.
type Sequence struct {
	Name      string
	Game      string
	Source    string
	Values    []int
	Preperiod int
	Period    int
}

// Kayles is octal game 0.77: knock down one pin or two adjacent pins.
// OEIS A002186 (Guy and Smith 1956; Winning Ways p. 91): from n = 71 on,
// period 12; the last exception is at n = 70.
var Kayles = Sequence{Name: "Kayles", Game: "Octal(0.77)", Source: "OEIS A002186; Winning Ways p. 91",
	Values: []int{0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7,
		4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7,
		4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1},
	Preperiod: 71, Period: 12}

// DawsonsChess is octal game 0.137. OEIS A002187 (Winning Ways pp. 89,
// 102): period 34, the last exception at n = 51.
var DawsonsChess = Sequence{Name: "Dawson's chess", Game: "Octal(0.137)", Source: "OEIS A002187; Winning Ways pp. 89, 102",
	Values: dawsonsChess, Preperiod: 52, Period: 34}

var dawsonsChess = []int{0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4,
	0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1,
	1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2,
	0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4}

// DawsonsKayles is octal game 0.07: knock down two adjacent pins. Its
// values are those of Dawson's chess shifted by one (OEIS A002187:
// "octal game .07 has values a(n-1)"), so period 34 from n = 53.
var DawsonsKayles = Sequence{Name: "Dawson's Kayles", Game: "Octal(0.07)", Source: "OEIS A002187 (shifted by one); Winning Ways p. 90",
	Values: append([]int{0}, dawsonsChess...), Preperiod: 53, Period: 34}

// GrundysGame is Grundy's game: split a heap into two unequal heaps. OEIS
// A002188; whether it is ever periodic is open.
var GrundysGame = Sequence{Name: "Grundy's game", Game: "Grundy", Source: "OEIS A002188",
	Values: []int{0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1, 2, 4,
		1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2, 1, 3, 2, 4, 3, 2, 4,
		3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3}}

// Sequences lists the published sequences above.
func Sequences() []Sequence { return []Sequence{Kayles, DawsonsKayles, DawsonsChess, GrundysGame} }
