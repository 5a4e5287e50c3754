package symbolic

import (
	isa "github.com/hc11mc/hc11mc/isa/m68hc11"
	"github.com/hc11mc/hc11mc/loader"
	"github.com/hc11mc/hc11mc/sim"
)

// The position of an instruction in the program: its index in a reverse
// postorder of the control flow from where execution starts, so that an
// instruction comes after every instruction that leads to it other than
// through a loop's back edge. ST expands the state that is furthest
// behind first: paths of unequal length through an if-else meet at the
// join, where Group merges them.

// rankOf returns pc's position, numbering the code reachable from pc
// that has none yet.
func (e *Engine) rankOf(pc uint16) int32 {
	if e.rank == nil {
		e.rank = make([]int32, 65536)
		for i := range e.rank {
			e.rank[i] = -1
		}
		e.number(e.M.Config.Entry)
	}
	if e.rank[pc] < 0 {
		e.number(pc)
	}
	return e.rank[pc]
}

// succs returns the static successors of the instruction at pc.
func (e *Engine) succs(pc uint16, dst []uint16) []uint16 {
	if e.M.HookAt(pc) != loader.NoStub {
		return dst
	}
	if e.code == nil {
		e.code = e.M.Initial()
	}
	s := e.code
	var buf [5]byte
	for k := range buf {
		buf[k] = e.M.ReadMem(s, pc+uint16(k))
	}
	in, err := isa.Decode(buf[:])
	if err != nil {
		return dst
	}
	next := pc + uint16(in.Len)
	switch in.Op {
	case isa.BRA:
		return append(dst, in.Target(pc))
	case isa.BRN:
		return append(dst, next)
	case isa.BHI, isa.BLS, isa.BCC, isa.BCS, isa.BNE, isa.BEQ, isa.BVC, isa.BVS,
		isa.BPL, isa.BMI, isa.BGE, isa.BLT, isa.BGT, isa.BLE, isa.BRSET, isa.BRCLR:
		return append(dst, in.Target(pc), next)
	case isa.BSR:
		return append(dst, in.Target(pc), next)
	case isa.JSR:
		if in.Mode == isa.Ext || in.Mode == isa.Dir {
			dst = append(dst, in.Operand)
		}
		return append(dst, next)
	case isa.JMP:
		if in.Mode == isa.Ext || in.Mode == isa.Dir {
			return append(dst, in.Operand)
		}
		return dst
	case isa.RTS, isa.RTI, isa.TEST:
		return dst
	}
	return append(dst, next)
}

// number gives the code reachable from root that has no position one, in
// reverse postorder after every position given so far.
func (e *Engine) number(root uint16) {
	type frame struct {
		pc   uint16
		succ []uint16
		next int
	}
	const visiting = -2
	var post []uint16
	stack := []frame{{pc: root, succ: e.succs(root, nil)}}
	e.rank[root] = visiting
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next < len(f.succ) {
			s := f.succ[f.next]
			f.next++
			if e.rank[s] == -1 {
				e.rank[s] = visiting
				stack = append(stack, frame{pc: s, succ: e.succs(s, nil)})
			}
			continue
		}
		post = append(post, f.pc)
		stack = stack[:len(stack)-1]
	}
	for j := len(post) - 1; j >= 0; j-- {
		e.rank[post[j]] = e.nextRank
		e.nextRank++
	}
}

// position is a state's place in the program: the sum of its live
// threads' positions.
func (e *Engine) position(st *State) int64 {
	var p int64
	for i := range st.S.Threads {
		t := &st.S.Threads[i]
		if t.Status != sim.Exited {
			p += int64(e.rankOf(t.PC))
		}
	}
	return p
}
