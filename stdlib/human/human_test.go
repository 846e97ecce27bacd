package human

import (
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 4096: "4,096", 2985984: "2,985,984",
		-123: "-123", -1234: "-1,234", 1 << 40: "1,099,511,627,776",
	} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Count(-9223372036854775808); got != "-9,223,372,036,854,775,808" {
		t.Errorf("Count(min int64) = %q", got)
	}
}

func TestShort(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0", 4096: "4,096", 9999: "9,999", 10000: "10.0k", 12345: "12.3k",
		999_949: "999.9k", 999_960: "1.0M", 2_985_984: "3.0M", 85_766_121: "85.8M",
		1_234_567_890: "1.2G", -2_985_984: "-3.0M",
	} {
		if got := Short(n); got != want {
			t.Errorf("Short(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Short(2.5e6); got != "2.5M" {
		t.Errorf("Short(2.5e6) = %q", got)
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1: "1 byte", 1023: "1,023 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 22_963_814: "21.9 MiB", 512 << 20: "512 MiB",
		3 << 30: "3 GiB", 1 << 40: "1 TiB", 5<<40 + 1<<39: "5.5 TiB",
	} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0 ms", 500 * time.Microsecond: "0.5 ms", 85 * time.Millisecond: "85 ms", 1400 * time.Millisecond: "1.4 s", 12 * time.Second: "12 s",
		125 * time.Second: "2m05s", 59600 * time.Millisecond: "60 s",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		one  string
		many []string
		want string
	}{
		{1, "P-position", nil, "1 P-position"},
		{0, "P-position", nil, "0 P-positions"},
		{2_985_984, "position", nil, "2,985,984 positions"},
		{2, "entry", nil, "2 entries"},
		{2, "day", nil, "2 days"},
		{3, "refuted printed reading", nil, "3 refuted printed readings"},
		{2, "box", nil, "2 boxes"},
		{1, "formula fits", []string{"formulas fit"}, "1 formula fits"},
		{4, "formula fits", []string{"formulas fit"}, "4 formulas fit"},
	} {
		if got := Quantity(c.n, c.one, c.many...); got != c.want {
			t.Errorf("Quantity(%d, %q, %q) = %q, want %q", c.n, c.one, c.many, got, c.want)
		}
	}
	if got := Short(1.0) + " " + Plural(1.0, "position"); got != "1 position" {
		t.Errorf("a short count of one: %q", got)
	}
}

func TestNearest(t *testing.T) {
	names := []string{"Values", "ValueOf", "Outcomes", "WinningMoves", "Remoteness", "Load"}
	for _, c := range []struct{ in, want string }{
		{"Value", "Values"}, {"values", "Values"}, {"Outcome", "Outcomes"},
		{"WiningMoves", "WinningMoves"}, {"Lod", "Load"}, {"Frobnicate", ""}, {"X", ""},
	} {
		if got := Nearest(c.in, names); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
