package sim

import (
	"fmt"
	"sync/atomic"
)

// Dead stack bytes (--reduce dead on firmware with its peripherals:
// Config.DeadStack).
//
// The frames that earlier calls and interrupts left below a thread's SP
// tell states apart that have the same futures: firmware does not read
// below its stack pointer (an interrupt may overwrite those bytes at any
// time). The reduction takes them out of a state's identity — and only
// out of its identity. Like a dead register (live.go), a dead stack byte
// keeps its value in the state that executes; the key a store keeps
// (KeyView) has it zeroed. No write is ever made on the reduction's
// behalf, so every transition the search takes is a transition of the
// firmware, and every counterexample replays as it was found.
//
// The masked set. Let low be the lowest address a pull has left below SP
// so far, in any search of the machine (it only falls), including the
// search a resumed one continues: a saved frontier carries it
// (learned.go), since the stored states were merged on keys masked by it
// and a read that tells them apart must still be seen. For each thread
// j whose stack top is known (InitSP, in RAM), its span is from the
// higher of low and one past the nearest lower top of another thread,
// live or not, up to its SP while it runs, or up to its top once it has
// ended. (No other boundary is needed: a byte below every pull is not
// masked, and one above a pull and below SP is in the stack's reach.)
// M(s) is the RAM of the state's layout inside some span. It is a
// function of s (SP, the status and the tops are in the identity) and of
// low.
//
// Why merging on the masked key keeps every verdict. Let s1 and s2 have
// equal masked keys: equal everywhere but in M(s). Run one transition
// from both. As long as no executed read — a load, an operand, an
// instruction fetch, by any thread or handler — falls inside M at the
// moment it is made, both runs read the same values, take the same
// control flow, write the same bytes and fault alike. Afterwards the
// states differ at most in bytes that were in M(s) and were not written;
// those are still in M unless a span shrank without a write, and a span
// shrinks only when SP moves down without pushing (LDS, TXS, TYS, DES:
// "uncovering"), when the memory map moves (INIT), or when a thread's
// top changes (a new thread carves its region out of another's — but
// every byte of the new region is below the new thread's SP, so masked
// in its span). low only falls, so a state stored earlier is masked no
// more than it would be now. By induction along any path, the futures of
// s1 and s2 agree, violations included, unless some transition reads a
// masked byte, uncovers one, or moves the memory map while something is
// masked. The stepper checks all three on every transition (deadRead,
// exposeTo, the layout check of env.accessed); the first time one happens
// the machine records it (DeadBroken), the search stops, withdraws the
// masking and searches again without it (package search, Run), so the
// verdict is always that of a search whose merges were all justified.
// A violation found before that is real: the states executed were never
// changed.

// DeadBreak describes the first transition that broke an assumption of
// dead-data elimination: a read, fetch or uncovering of a masked stack
// byte, a move of the memory map while bytes were masked, or a return to
// an address liveness did not expect (live.go).
type DeadBreak struct {
	What   string // "read", "fetch", "uncover", "layout", "return" or "timer"
	Thread int
	PC     uint16 // the instruction
	Addr   uint16 // the byte, or where the return went
}

func (d *DeadBreak) String() string {
	switch d.What {
	case "uncover":
		return fmt.Sprintf("thread %d at 0x%04X moved SP down over stack bytes below it without writing them (0x%04X)", d.Thread, d.PC, d.Addr)
	case "layout":
		return fmt.Sprintf("thread %d at 0x%04X moved the memory map (INIT) while stack bytes below SP were left out of states", d.Thread, d.PC)
	case "return":
		return fmt.Sprintf("thread %d returned to 0x%04X, which is not after a call liveness knows of", d.Thread, d.Addr)
	case "fetch":
		return fmt.Sprintf("thread %d executed code at 0x%04X, a stack byte below SP", d.Thread, d.Addr)
	case "timer":
		return fmt.Sprintf("thread %d at 0x%04X accessed the timer register at 0x%04X after the environment chose, while the exact clock left the timer's counters out of states", d.Thread, d.PC, d.Addr)
	}
	return fmt.Sprintf("thread %d at 0x%04X read 0x%04X, a stack byte below SP", d.Thread, d.PC, d.Addr)
}

// deadState is the part of Machine that dead-data elimination's checks
// keep.
type deadState struct {
	lowPulled atomic.Uint32 // the lowest address a pull left below SP, plus one; 0: none
	deadBreak atomic.Pointer[DeadBreak]
	deadOff   atomic.Bool // withdrawn: nothing is masked
}

// DeadBroken returns the first transition that broke an assumption of
// dead-data elimination, or nil.
func (m *Machine) DeadBroken() *DeadBreak { return m.deadBreak.Load() }

// WithdrawDead turns dead-data elimination off for every later key of m:
// registers and stack bytes are all kept (a search that saw DeadBroken
// searches again after it).
func (m *Machine) WithdrawDead() { m.deadOff.Store(true) }

// EliminatesDead reports whether m masks dead data in state keys now.
func (m *Machine) EliminatesDead() bool {
	return (m.live != nil || m.Config.DeadStack) && !m.deadOff.Load()
}

// deadBroke records d as the first break, unless one is recorded.
func (m *Machine) deadBroke(d DeadBreak) { m.deadBreak.CompareAndSwap(nil, &d) }

// masking reports whether stack bytes are being masked (something has
// been pulled, and the elimination stands).
func (m *Machine) masking() bool {
	return m.Config.DeadStack && m.lowPulled.Load() != 0 && !m.deadOff.Load()
}

// pulled records that a pull left the byte at a below SP.
func (m *Machine) pulled(a uint16) {
	for {
		cur := m.lowPulled.Load()
		if cur != 0 && cur <= uint32(a)+1 || m.lowPulled.CompareAndSwap(cur, uint32(a)+1) {
			return
		}
	}
}

// span is the masked part of thread j's stack in s (see above), when
// sp is its SP; ok false when nothing of it is masked.
func (m *Machine) span(s *State, j int, sp uint16) (lo, hi uint16, ok bool) {
	t := &s.Threads[j]
	if t.InitSP == 0 {
		return 0, 0, false
	}
	if m.attr[t.InitSP] != attrRAM {
		return 0, 0, false
	}
	var floor uint16
	for k := range s.Threads {
		u := &s.Threads[k]
		if k != j && u.InitSP != 0 && u.InitSP < t.InitSP && u.InitSP >= floor {
			floor = u.InitSP + 1
		}
	}
	low := m.lowPulled.Load()
	if low == 0 {
		return 0, 0, false
	}
	lo = max(floor, uint16(low-1))
	hi = t.InitSP
	if t.Status != Exited {
		hi = min(sp, t.InitSP)
	}
	return lo, hi, lo <= hi
}

// maskedBy returns the thread in whose masked span a lies in s (thread
// x.tid's with its current SP), or -1.
func (x *stepper) maskedBy(a uint16) int {
	s := x.s
	for j := range s.Threads {
		if j != x.tid && x.m.faults.unseenOther {
			continue
		}
		sp := s.Threads[j].SP
		if j == x.tid {
			sp = x.t.SP
		}
		if lo, hi, ok := x.m.span(s, j, sp); ok && lo <= a && a <= hi {
			return j
		}
	}
	return -1
}

// deadRead checks a read (or, with fetch, an instruction fetch) of the
// RAM byte a against the masked set.
func (x *stepper) deadRead(a uint16, what string) {
	if uint32(a)+1 < x.m.lowPulled.Load() || x.m.deadOff.Load() {
		return
	}
	if x.maskedBy(a) >= 0 {
		x.m.deadBroke(DeadBreak{What: what, Thread: x.tid, PC: x.t.PC, Addr: a})
	}
}

// KeyView holds the scratch a caller of Machine.KeyState needs; each
// goroutine keeps its own.
type KeyView struct {
	st    State
	pages []*Page
	own   []Page
}

// KeyState returns the state whose key a store keeps for s: s itself
// when nothing of it is masked, otherwise a view of s (valid until the
// next call with v) whose pages have the masked stack bytes zeroed. The
// view shares s's threads; only its key may be taken (AppendKey).
func (m *Machine) KeyState(s *State, v *KeyView) *State {
	if !m.masking() {
		return s
	}
	lay := m.layoutOf(s)
	copied := false
	for j := range s.Threads {
		lo, hi, ok := m.span(s, j, s.Threads[j].SP)
		if !ok {
			continue
		}
		for a := int(lo); a <= int(hi); a++ {
			if lay.attr[a] != attrRAM {
				continue
			}
			i := int(lay.pageOf[a/PageSize])
			if !copied {
				v.st = *s
				v.pages = append(v.pages[:0], s.Pages...)
				v.st.Pages = v.pages
				if cap(v.own) < len(s.Pages) {
					v.own = make([]Page, 0, len(s.Pages)) // never grown while pointed into
				}
				v.own = v.own[:0]
				copied = true
			}
			if v.st.Pages[i] == s.Pages[i] {
				v.own = append(v.own, Page{Data: s.Pages[i].Data})
				v.st.Pages[i] = &v.own[len(v.own)-1]
			}
			v.st.Pages[i].Data[a%PageSize] = 0
		}
	}
	if !copied {
		return s
	}
	return &v.st
}
