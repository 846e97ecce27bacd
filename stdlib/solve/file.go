package solve

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"slices"

	"grundy/stdlib/atomicfile"
	"grundy/stdlib/games"
	"grundy/stdlib/human"
)

// SaveCSV writes the table as CSV to a file, replacing it only once the
// whole table is written.
func (t *Table) SaveCSV(path string) error {
	if err := t.noTable("SaveCSV"); err != nil {
		return err
	}
	return atomicfile.Write(path, 0o644, t.WriteCSV)
}

// A saved table is a JSON header line, the entries (little-endian), then
// crcMagic and a CRC-32 (IEEE) of everything before it. Format 1 files
// (checksum over the entries only, or none) are still read.
const (
	fileMagic   = "grundy-table/2"
	fileMagicV1 = "grundy-table/1"
	crcMagic    = "crc32"
	// maxHeader bounds the header line, so that a file that is not a
	// table is not read whole in search of a newline.
	maxHeader = 64 << 10
)

type fileHeader struct {
	Format string `json:"format"`
	Game   string `json:"game"`
	// Rules identifies the game's moves (the cache's fingerprint); a
	// table joins the cache on Load only if its name still means these
	// rules, so a table of a games.Func that borrowed a library game's
	// name cannot pass for that game.
	Rules   string  `json:"rules,omitempty"`
	Kind    string  `json:"kind"`
	Max     []int   `json:"max"`
	Method  string  `json:"method"`
	Seconds float64 `json:"seconds"`
}

// Save writes the table to a file that Load reads back, so a long solve is
// done once. The file is replaced atomically: a crash or a full disk
// during Save leaves the old file as it was. A symbolic link is followed,
// and an existing file keeps its permissions.
func (t *Table) Save(path string) error {
	if err := t.noTable("Save"); err != nil {
		return err
	}
	return atomicfile.Write(path, 0o644, t.writeTo)
}

func (t *Table) writeTo(w io.Writer) error {
	rules := ""
	if t.game != nil {
		rules = fingerprint(t.game)
	}
	h, err := json.Marshal(fileHeader{Format: fileMagic, Game: t.name, Rules: rules, Kind: t.kind.String(), Max: t.max, Method: t.method, Seconds: t.seconds})
	if err != nil {
		return err
	}
	sum := crc32.NewIEEE()
	cw := io.MultiWriter(w, sum)
	if _, err := cw.Write(append(h, '\n')); err != nil {
		return err
	}
	if err := t.writeEntries(cw); err != nil {
		return err
	}
	var tail [len(crcMagic) + 4]byte
	copy(tail[:], crcMagic)
	binary.LittleEndian.PutUint32(tail[len(crcMagic):], sum.Sum32())
	_, err = w.Write(tail[:])
	return err
}

// entryChunk is how many entries are converted at a time: saving or
// loading never needs a second copy of a large table.
const entryChunk = 32 << 10

func (t *Table) writeEntries(w io.Writer) error {
	buf := make([]byte, 8*entryChunk)
	if t.kind == KindOutcomes {
		for s := t.bits; len(s) > 0; {
			n := min(len(s), entryChunk)
			for i, v := range s[:n] {
				binary.LittleEndian.PutUint64(buf[8*i:], v)
			}
			if _, err := w.Write(buf[:8*n]); err != nil {
				return err
			}
			s = s[n:]
		}
		return nil
	}
	for s := t.vals; len(s) > 0; {
		n := min(len(s), entryChunk)
		for i, v := range s[:n] {
			binary.LittleEndian.PutUint16(buf[2*i:], v)
		}
		if _, err := w.Write(buf[:2*n]); err != nil {
			return err
		}
		s = s[n:]
	}
	return nil
}

func (t *Table) readEntries(r io.Reader) error {
	buf := make([]byte, 8*entryChunk)
	if t.kind == KindOutcomes {
		for s := t.bits; len(s) > 0; {
			n := min(len(s), entryChunk)
			if _, err := io.ReadFull(r, buf[:8*n]); err != nil {
				return err
			}
			for i := range s[:n] {
				s[i] = binary.LittleEndian.Uint64(buf[8*i:])
			}
			s = s[n:]
		}
		return nil
	}
	for s := t.vals; len(s) > 0; {
		n := min(len(s), entryChunk)
		if _, err := io.ReadFull(r, buf[:2*n]); err != nil {
			return err
		}
		for i := range s[:n] {
			s[i] = binary.LittleEndian.Uint16(buf[2*i:])
		}
		s = s[n:]
	}
	return nil
}

// Load reads a table written by Save, refusing a damaged file (any byte
// changed, header included). The game is rebuilt from its name with
// games.Parse (moves need it), and the table joins the session cache when
// that name still means the rules it was solved for.
func Load(path string) (*Table, error) {
	t, sameRules, err := load(path)
	if err != nil {
		return nil, err
	}
	if sameRules {
		cacheMu.Lock()
		cache[cacheKey{fingerprint(t.game), t.kind.String(), fmt.Sprint(t.max)}] = t
		cacheMu.Unlock()
	}
	return t, nil
}

// load reads a table; sameRules says that its game is the one it was
// solved for, so that it may be cached under it.
func load(path string) (t *Table, sameRules bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 256<<10)
	line, err := readHeaderLine(br)
	if err != nil {
		return nil, false, fmt.Errorf("%s: not a table written by Table.Save (%v)", path, err)
	}
	var h fileHeader
	if err := json.Unmarshal(line, &h); err != nil || (h.Format != fileMagic && h.Format != fileMagicV1) {
		return nil, false, fmt.Errorf("%s: not a table written by Table.Save, or its header is damaged (header %.40q)", path, line)
	}
	kind := Kind(-1)
	for _, k := range []Kind{KindValues, KindOutcomes, KindRemoteness} {
		if k.String() == h.Kind {
			kind = k
		}
	}
	if kind < 0 {
		return nil, false, fmt.Errorf("%s: damaged header (unknown table kind %q)", path, h.Kind)
	}
	// A damaged header must not make Load allocate what it says: check the
	// bounds, and that the file holds that many entries, first.
	if len(h.Max) == 0 || slices.Min(h.Max) < 0 || positions(h.Max) > 1<<48 {
		return nil, false, fmt.Errorf("%s: damaged header (bounds %v)", path, h.Max)
	}
	t = &Table{name: h.Game, kind: kind, max: h.Max, method: h.Method, seconds: h.Seconds}
	t.layout()
	if st, err := f.Stat(); err == nil && st.Size() < int64(len(line))+t.bytes() {
		return nil, false, fmt.Errorf("%s: truncated table (%s expected, %s of entries needed, the file has %s)", path, human.Quantity(t.size, "position"), human.Quantity(t.bytes(), "byte"), human.Count(st.Size()-int64(len(line))))
	}
	if t.bytes() > MemoryLimit {
		return nil, false, fmt.Errorf("%s: the table needs %s of memory, more than the limit %s (solve.MemoryLimit)", path, human.Bytes(t.bytes()), human.Bytes(MemoryLimit))
	}
	if err := roomFor(t.bytes(), path+": the table"); err != nil {
		return nil, false, err
	}
	t.alloc()
	var sum hash.Hash32 = crc32.NewIEEE()
	if h.Format == fileMagic {
		sum.Write(line)
	}
	if err := t.readEntries(io.TeeReader(br, sum)); err != nil {
		return nil, false, fmt.Errorf("%s: truncated table (%s expected): %v", path, human.Quantity(t.size, "position"), err)
	}
	rest, err := io.ReadAll(io.LimitReader(br, 1024))
	switch {
	case err != nil:
		return nil, false, fmt.Errorf("%s: %v", path, err)
	case len(rest) == 0 && h.Format == fileMagicV1:
		// Format 1 tables saved before the checksum end here.
	case len(rest) == len(crcMagic)+4 && string(rest[:len(crcMagic)]) == crcMagic:
		if want := binary.LittleEndian.Uint32(rest[len(crcMagic):]); want != sum.Sum32() {
			return nil, false, fmt.Errorf("%s: damaged table: its checksum does not match its content; solve it again", path)
		}
	default:
		return nil, false, fmt.Errorf("%s: damaged table: %s after its %s", path, human.Quantity(len(rest), "unexpected byte"), human.Quantity(t.size, "entry"))
	}
	if g, err := games.Parse(h.Game); err == nil && (g.Heaps() == len(h.Max) || g.Heaps() == 0) {
		sameRules = h.Rules != "" && fingerprint(g) == h.Rules
		// A table saved from another game of the same name (a
		// games.Func) gets no game: its moves are not the parsed one's.
		// Format 1 tables do not say, and keep the parsed game as before.
		if sameRules || h.Rules == "" {
			t.game = g
		}
	}
	return t, sameRules, nil
}

// readHeaderLine reads the header line, newline included.
func readHeaderLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for len(line) < maxHeader {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if err == nil {
			if !bytes.HasPrefix(line, []byte("{")) {
				return nil, errors.New("no header line")
			}
			return line, nil
		}
		if err != bufio.ErrBufferFull {
			return nil, fmt.Errorf("no header line: %v", err)
		}
	}
	return nil, errors.New("no header line")
}
