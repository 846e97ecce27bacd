package grundyrt

import "testing"

func TestMinMaxInt(t *testing.T) {
	for _, c := range []struct {
		s        []int
		min, max int
	}{{nil, 0, 0}, {[]int{4}, 4, 4}, {[]int{3, -2, 7, 0}, -2, 7}} {
		if lo, hi := MinInt(c.s), MaxInt(c.s); lo != c.min || hi != c.max {
			t.Errorf("%v: MinInt %d MaxInt %d, want %d %d", c.s, lo, hi, c.min, c.max)
		}
	}
}
