package search

// coverage is the set of PCs the expanded states' threads were at: a bit
// per address, to test, and the list of those set, to report. Reporting
// walks the list, not the 64 Ki addresses: a search of a few dozen states
// takes about 100 µs, and a walk over every address took 45 µs of it (and
// of each member's, in a swarm).
type coverage struct {
	bits [1 << 10]uint64
	pcs  []uint16
}

// add records pc.
func (c *coverage) add(pc uint16) {
	w, b := pc>>6, uint64(1)<<(pc&63)
	if c.bits[w]&b == 0 {
		c.bits[w] |= b
		c.pcs = append(c.pcs, pc)
	}
}

// into adds the PCs to m.
func (c *coverage) into(m map[uint16]bool) {
	for _, pc := range c.pcs {
		m[pc] = true
	}
}
