package sim

// Session is a run executed as a debugger asks: the same schedule, the
// same environment and the same violations as Run with the same options,
// one instruction at a time. It stands, between calls, before an attempt
// of a thread to execute its next instruction (Next); Step makes that
// attempt, and then runs what comes before the next one: the
// environment's events, interrupt entries, time passing while every
// thread sleeps. A run stopped and resumed that way is the run Run makes,
// step for step (Run looks after every instruction the same way when it
// is given a Visit function, and with Visit its batches of instructions
// make the same events at the same steps and cycles).
type Session struct {
	r    runner
	idx  int  // the attempt the session stands before: r.order[idx]
	done bool // the run has ended
}

// NewSession starts a run of s, which it changes, with opts (Trace is
// ignored: a debugger shows the state), and brings it to its first
// attempt. opts.Stop is not asked: the caller decides when to step.
func (m *Machine) NewSession(s *State, opts RunOptions) *Session {
	opts.Trace, opts.Stop = nil, nil
	if opts.Visit == nil {
		opts.Visit = func(uint16) {} // one instruction at a time
	}
	se := &Session{}
	se.r.init(m, s, opts)
	se.park()
	return se
}

// park runs rounds up to the next attempt of a thread, or to the end of
// the run.
func (se *Session) park() {
	r := &se.r
	for {
		if r.opts.Steps != 0 && r.res.Steps >= r.opts.Steps {
			r.end(r.cur, "stopped at the --steps bound")
			se.stop()
			return
		}
		over, done := r.head()
		if done {
			se.stop()
			return
		}
		if over {
			continue
		}
		r.order = r.m.runOrder(r.s, r.opts.Rand, r.cur, r.order[:0])
		se.idx = 0
		if len(r.order) > 0 {
			return
		}
		if r.tail() {
			se.stop()
			return
		}
	}
}

// stop ends the session's run.
func (se *Session) stop() {
	se.done = true
	se.r.finish()
}

// Next is the thread whose attempt the session stands before; false
// when the run has ended.
func (se *Session) Next() (int, bool) {
	if se.done {
		return 0, false
	}
	return se.r.order[se.idx], true
}

// Step makes the attempt Next names and runs on to the next attempt or
// the end of the run. It returns the thread that attempted and whether
// it moved (false: it could not, a lock held; the next thread in the
// schedule's order is tried next). After the end it does nothing.
func (se *Session) Step() (thread int, moved bool) {
	if se.done {
		return 0, false
	}
	r := &se.r
	i := r.order[se.idx]
	blocked, done := r.attempt(i)
	switch {
	case done:
		se.stop()
	case blocked:
		se.idx++
		if se.idx < len(r.order) {
			return i, false
		}
		if r.tail() {
			se.stop()
		} else {
			se.park()
		}
	default:
		se.park()
	}
	return i, !blocked
}

// Done reports whether the run has ended.
func (se *Session) Done() bool { return se.done }

// Result is the run's result so far: the instructions and cycles, and
// after the end its violation or the reason it stopped.
func (se *Session) Result() RunResult {
	res := se.r.res
	if se.r.env != nil {
		res.Received = se.r.env.received
	}
	return res
}

// State is the state the session changes.
func (se *Session) State() *State { return se.r.s }

// PokeMem writes v at a in s as a debugger writes memory: RAM only. It
// reports false, writing nothing, for any other address: read-only
// memory, the register block and the input registers (whose writes are
// the device's or the environment's), unmapped addresses.
func (m *Machine) PokeMem(s *State, a uint16, v uint8) bool {
	if !m.RAMAt(s, a) {
		return false
	}
	s.page(int(m.layoutOf(s).pageOf[a/PageSize])).Data[a%PageSize] = v
	return true
}

// RAMAt reports whether a is RAM in s: what PokeMem writes.
func (m *Machine) RAMAt(s *State, a uint16) bool { return m.layoutOf(s).attr[a] == attrRAM }

// Clone returns a copy of the session that goes on independently: the
// same run from here, step for step. The state is cloned (its pages
// shared until either writes one), and so is what the run keeps beside
// it — the schedule's order, the environment's input and clock, the loop
// finder's kept state. false when the run draws from a random source or
// asks for input (RunOptions.Rand, Input), which cannot be copied.
func (se *Session) Clone() (*Session, bool) {
	o := &se.r.opts
	if o.Rand != nil || o.Input != nil {
		return nil, false
	}
	n := &Session{idx: se.idx, done: se.done, r: se.r}
	r := &n.r
	r.s = se.r.s.Clone()
	r.x.s = r.s
	r.x.t = nil // set by the next attempt
	if r.x.fx != nil {
		r.x.fx = &r.fx
	}
	r.fx = append([]Output(nil), se.r.fx...)
	r.order = append([]int(nil), se.r.order...)
	if se.r.env != nil {
		e := *se.r.env
		e.feed = append([]byte(nil), e.feed...)
		e.cf.kept.Threads = append([]Thread(nil), e.cf.kept.Threads...)
		e.cf.kept.Pages = append([]*Page(nil), e.cf.kept.Pages...)
		e.cf.kept.ownedHi = nil // kept is never written: its pages are frozen
		e.cf.va, e.cf.vb = KeyView{}, KeyView{}
		r.env = &e
	}
	return n, true
}
