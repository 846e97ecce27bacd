package entail

// memoTable maps canonical states to the search's answer. It replaces a
// map[string]bool: profiles of the sum-rule check spent most of their time
// hashing string keys and probing Go's map; here a state is hashed word by
// word, kept once in an arena, and found by linear probing.
type memoTable struct {
	slots []memoSlot
	arena []uint32
	count int
}

type memoSlot struct {
	hash uint64 // 0: empty (hashState never returns 0)
	off  uint32 // the state's words are arena[off : off+n]
	n    uint32 // len<<1 | answer
}

func hashState(st state) uint64 {
	h := uint64(len(st))*0x9e3779b97f4a7c15 + 1
	for _, w := range st {
		h ^= uint64(w)
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 29
	}
	return h | 1
}

func (m *memoTable) get(st state, h uint64) (answer, found bool) {
	if len(m.slots) == 0 {
		return false, false
	}
	mask := uint64(len(m.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.hash == 0 {
			return false, false
		}
		if s.hash == h && int(s.n>>1) == len(st) && equalWords(m.arena[s.off:s.off+s.n>>1], st) {
			return s.n&1 == 1, true
		}
	}
}

func equalWords(a, b state) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// put records st's answer; st must not be in the table.
func (m *memoTable) put(st state, h uint64, answer bool) {
	if 2*(m.count+1) > len(m.slots) {
		m.grow()
	}
	off := uint32(len(m.arena))
	m.arena = append(m.arena, st...)
	n := uint32(len(st)) << 1
	if answer {
		n |= 1
	}
	m.insert(memoSlot{hash: h, off: off, n: n})
	m.count++
}

func (m *memoTable) insert(s memoSlot) {
	mask := uint64(len(m.slots) - 1)
	i := s.hash & mask
	for m.slots[i].hash != 0 {
		i = (i + 1) & mask
	}
	m.slots[i] = s
}

func (m *memoTable) grow() {
	old := m.slots
	size := 1 << 12
	if len(old) > 0 {
		size = 2 * len(old)
	}
	m.slots = make([]memoSlot, size)
	for _, s := range old {
		if s.hash != 0 {
			m.insert(s)
		}
	}
}

// bytes is the memory the table holds: its slots and its arena of words.
func (m *memoTable) bytes() int64 {
	return int64(len(m.slots))*16 + int64(cap(m.arena))*4
}
