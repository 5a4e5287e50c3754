package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hc11mc/hc11mc/loader"
)

// mapInterner is the plainest Resolver: maps from keys and page contents
// to ids, and no caching in Tag (so that a stale tag can never hide a
// difference from these tests).
type mapInterner struct {
	threads map[ThreadKey]uint32
	tkeys   []ThreadKey
	pages   map[[PageSize]byte]uint32
	pdata   []*Page
	groups  map[Group]uint32
	gdata   []Group
}

func newMapInterner() *mapInterner {
	return &mapInterner{threads: map[ThreadKey]uint32{}, pages: map[[PageSize]byte]uint32{}, groups: map[Group]uint32{}}
}

func (m *mapInterner) GroupID(g *Group) uint32 {
	id, ok := m.groups[*g]
	if !ok {
		id = uint32(len(m.gdata))
		m.groups[*g] = id
		m.gdata = append(m.gdata, *g)
	}
	return id
}

func (m *mapInterner) Group(id uint32) *Group {
	if int(id) >= len(m.gdata) {
		return nil
	}
	return &m.gdata[id]
}

func (m *mapInterner) ThreadID(t *Thread) uint32 {
	k := t.Key()
	id, ok := m.threads[k]
	if !ok {
		id = uint32(len(m.tkeys))
		m.threads[k] = id
		m.tkeys = append(m.tkeys, k)
	}
	return id
}

func (m *mapInterner) ThreadKeyOf(id uint32) ThreadKey { return m.tkeys[id] }

func (m *mapInterner) PageID(p *Page) uint32 {
	id, ok := m.pages[p.Data]
	if !ok {
		id = uint32(len(m.pdata))
		m.pages[p.Data] = id
		m.pdata = append(m.pdata, &Page{Data: p.Data})
	}
	return id
}

func (m *mapInterner) LoadThread(t *Thread, id uint32) bool {
	if int(id) >= len(m.tkeys) {
		return false
	}
	t.SetKey(m.tkeys[id])
	return true
}

func (m *mapInterner) Page(id uint32) *Page {
	if int(id) >= len(m.pdata) {
		return nil
	}
	return m.pdata[id]
}

// The class of each field of the state's types: part of the identity (in
// Key, sched or page contents, and so in Equal, Hash and every key), or
// not. A field that is in neither list fails TestStateFieldsClassified: a
// field added to the state must be decided on, here and in key.go, or a
// store would silently take states that differ in it for one.
var (
	identityFields = map[string]bool{
		"Thread.A": true, "Thread.B": true, "Thread.CCR": true, "Thread.X": true, "Thread.Y": true,
		"Thread.SP": true, "Thread.PC": true, "Thread.Status": true, "Thread.CS": true, "Thread.InitSP": true, "Thread.Inhibit": true,
		"State.Threads": true, "State.Pages": true, "State.Atomic": true, "State.AtomicDepth": true,
		"Page.Data": true,
	}
	// Bookkeeping that two equal states may differ in: nothing the
	// simulator decides depends on it (docs/simulator.md, "States").
	outsideFields = map[string]bool{
		"Thread.PrevPC": true, "Thread.Cycles": true, "Thread.Dropped": true, "Thread.Tag": true,
		"Thread.NShadow": true, "Thread.Shadow": true,
		"State.owned": true, "State.ownedHi": true, "State.pool": true,
		"Page.Tag": true, "Page.Base": true, "Page.hash": true, "Page.hashed": true,
	}
)

// leafFields lists the fields of a struct type as Type.Field, looking
// through embedded structs (Thread's CPU).
func leafFields(t reflect.Type, owner string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, leafFields(f.Type, owner)...)
			continue
		}
		out = append(out, owner+"."+f.Name)
	}
	return out
}

// TestStateFieldsClassified: every field of State, Thread and Page is
// known to be inside or outside a state's identity; and changing any
// exported one of a thread changes Equal, Hash and the key exactly when
// it is inside.
func TestStateFieldsClassified(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[State](), reflect.TypeFor[Thread](), reflect.TypeFor[Page]()} {
		for _, f := range leafFields(typ, typ.Name()) {
			if identityFields[f] == outsideFields[f] {
				t.Errorf("field %s is not classified: decide whether it is part of a state's identity, "+
					"and put it in Thread.Key or State.sched (key.go) if it is", f)
			}
		}
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	in := newMapInterner()
	for range 500 {
		base := randomState(rnd, 1+rnd.IntN(3), 4)
		for _, name := range leafFields(reflect.TypeFor[Thread](), "Thread") {
			c := cloneDeep(base)
			ti := rnd.IntN(len(c.Threads))
			flipField(reflect.ValueOf(&c.Threads[ti]).Elem(), name[len("Thread."):], rnd)
			same := identityFields[name] == false
			checkPair(t, in, base, c, same, "thread field "+name)
		}
	}
}

// flipField changes the named field (looking into embedded structs) of
// the struct v to another value.
func flipField(v reflect.Value, name string, rnd *rand.Rand) {
	f := v.FieldByName(name)
	// Fields with a bounded domain take another value inside it.
	if bound, ok := map[string]uint64{"Status": uint64(Exited), "NShadow": MaxShadow}[name]; ok {
		f.SetUint((f.Uint() + 1 + rnd.Uint64N(bound)) % (bound + 1))
		return
	}
	switch f.Kind() {
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.SetUint(f.Uint() ^ 1<<rnd.IntN(f.Type().Bits()))
	case reflect.Array:
		e := f.Index(rnd.IntN(f.Len()))
		e.SetUint(e.Uint() ^ 1<<rnd.IntN(e.Type().Bits()))
	default:
		panic("flipField: a field of kind " + f.Kind().String())
	}
}

// checkPair checks that Equal, the keys and the hashes of a and b agree
// with each other and with want.
func checkPair(t *testing.T, in Interner, a, b *State, want bool, what string) {
	t.Helper()
	eq := a.Equal(b)
	ka, kb := string(a.AppendKey(nil, in)), string(b.AppendKey(nil, in))
	if eq != b.Equal(a) || eq != (ka == kb) || eq && a.Hash() != b.Hash() || eq != want {
		t.Fatalf("%s: Equal %v (reverse %v), keys equal %v, hashes %x %x, want equal %v",
			what, eq, b.Equal(a), ka == kb, a.Hash(), b.Hash(), want)
	}
	// Equal keys or not, each packs and unpacks to a state Equal to it.
	for _, s := range []*State{a, b} {
		var u State
		if err := u.Unpack(s.AppendPacked(nil, in.(Resolver)), len(s.Pages), in.(Resolver)); err != nil || !u.Equal(s) {
			t.Fatalf("%s: pack and unpack: %v", what, err)
		}
	}
}

// randomState makes a state of a few threads and pages whose fields take
// values from small domains (so that independently made states are often
// equal), with page contents from a small pool of fresh pages (so that
// equal contents are often in distinct pages).
func randomState(rnd *rand.Rand, threads, pages int) *State {
	small8 := func() uint8 { return uint8(rnd.IntN(2)) }
	small16 := func() uint16 { return uint16(rnd.IntN(2)) << uint(rnd.IntN(16)) }
	s := &State{}
	for range threads {
		t := Thread{CPU: CPU{A: small8(), B: small8(), CCR: small8(), X: small16(), Y: small16(), SP: small16(), PC: small16()},
			Status: uint8(rnd.IntN(int(Exited) + 1)), CS: small8(), InitSP: small16(),
			PrevPC: small16(), Cycles: uint64(rnd.IntN(3)), Dropped: uint32(rnd.IntN(2)), NShadow: uint8(rnd.IntN(3))}
		for j := range t.NShadow {
			t.Shadow[j] = small16()
		}
		s.Threads = append(s.Threads, t)
	}
	s.Atomic = uint8(rnd.IntN(len(s.Threads) + 1))
	if s.Atomic != 0 {
		s.AtomicDepth = 1 + small8()
	}
	for range pages {
		p := &Page{}
		p.Data[rnd.IntN(PageSize)] = small8()
		s.Pages = append(s.Pages, p)
	}
	return s
}

// cloneDeep copies s with pages of its own, so that changing the copy's
// memory never changes s.
func cloneDeep(s *State) *State {
	c := &State{Threads: append([]Thread(nil), s.Threads...), Atomic: s.Atomic, AtomicDepth: s.AtomicDepth}
	for _, p := range s.Pages {
		c.Pages = append(c.Pages, &Page{Data: p.Data})
	}
	return c
}

// TestKeyIffEqual: on random pairs of states — independent ones, and
// ones that differ in one random change of any part (a thread's field,
// the scheduler bytes, a memory byte, the number of threads), or in
// bookkeeping only — the keys are equal exactly when Equal holds, and
// Equal states hash alike.
func TestKeyIffEqual(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	in := newMapInterner()
	threadFields := leafFields(reflect.TypeFor[Thread](), "Thread")
	equalSeen, differentSeen := 0, 0
	for i := range 20000 {
		nt := 1 + rnd.IntN(2)
		np := 2
		if i%2 == 1 {
			np = 2*GroupPages + 1 + rnd.IntN(GroupPages) // keyed by groups of pages
		}
		a := randomState(rnd, nt, np)
		var b *State
		switch rnd.IntN(6) {
		case 0: // independent
			b = randomState(rnd, nt, np)
		case 1: // a thread's field
			b = cloneDeep(a)
			name := threadFields[rnd.IntN(len(threadFields))]
			flipField(reflect.ValueOf(&b.Threads[rnd.IntN(nt)]).Elem(), name[len("Thread."):], rnd)
		case 2: // the scheduler bytes
			b = cloneDeep(a)
			if rnd.IntN(2) == 0 {
				b.Atomic = (b.Atomic + 1) % uint8(nt+1)
			} else {
				b.AtomicDepth ^= 1
			}
		case 3: // a byte of memory
			b = cloneDeep(a)
			b.Pages[rnd.IntN(np)].Data[rnd.IntN(PageSize)] ^= 1 << rnd.IntN(8)
		case 4: // another number of threads
			b = cloneDeep(a)
			b.Threads = append(b.Threads, b.Threads[0])
		default: // the same pages, shared or copied
			b = cloneDeep(a)
			if rnd.IntN(2) == 0 {
				copy(b.Pages, a.Pages)
			}
		}
		eq := a.Equal(b)
		if eq {
			equalSeen++
		} else {
			differentSeen++
		}
		checkPair(t, in, a, b, eq, fmt.Sprintf("pair %d", i))
	}
	if equalSeen < 1000 || differentSeen < 1000 {
		t.Errorf("the pairs were %d equal and %d different: the test does not exercise both", equalSeen, differentSeen)
	}
}

// corpusMachines are the machines of every model in testdata, with and
// without the TOC1 interrupt.
func corpusMachines(t *testing.T) map[string]*Machine {
	var files []string
	for _, dir := range []string{"models", "bench", "examples"} {
		fs, _ := filepath.Glob(filepath.Join("..", "testdata", dir, "*.elf"))
		files = append(files, fs...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d models in ../testdata", len(files))
	}
	out := map[string]*Machine{}
	for i, f := range files {
		img, err := loader.Load(f, loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, irq := range [][]string{nil, {"toc1"}} {
			m, err := NewMachine(img, Config{Entry: img.Entry, IRQs: irq})
			if err != nil {
				continue // no TOC1 vector
			}
			out[fmt.Sprintf("%s%v", filepath.Base(f), irq)] = m
		}
		if i%4 == 0 {
			// With 8 KiB of RAM more, states of 136 pages: keys name
			// groups of pages (GroupPages).
			img, err := loader.Load(f, loader.Options{RAM: []loader.Range{{Lo: 0x2000, Hi: 0x3FFF}}})
			if err != nil {
				t.Fatal(err)
			}
			m, err := NewMachine(img, Config{Entry: img.Entry})
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Initial().Pages) <= 2*GroupPages {
				t.Fatalf("%s with 8 KiB more RAM: %d pages", f, len(m.Initial().Pages))
			}
			out[filepath.Base(f)+" +8K"] = m
		}
	}
	return out
}

// TestKeyCorpus: on the first states of every model in testdata, keys are
// equal exactly when Equal holds (states with equal keys are Equal and hash
// alike; states with equal hashes but different keys are not Equal), the
// key of each successor made from its parent's (ParentKey) is its full
// key, as its packed form made from its parent's (ParentPacked) is its
// packed form, and each state packs and unpacks to an Equal one with the same
// bookkeeping.
func TestKeyCorpus(t *testing.T) {
	total := 0
	for name, m := range corpusMachines(t) {
		in := newMapInterner()
		byKey := map[string]*State{}
		byHash := map[uint64][]*State{}
		exp, exp2 := m.NewExpander(), m.NewExpander()
		queue := []*State{m.Initial()}
		var par ParentKey
		var pp ParentPacked
		for n := 0; n < len(queue) && n < 400; n++ {
			s := queue[n]
			par.Set(s, in)
			if full := s.AppendKey(nil, in); string(par.Key) != string(full) {
				t.Fatalf("%s: parent key %x, full key %x", name, par.Key, full)
			}
			pp.Set(s, in)
			if full := s.AppendPacked(nil, in); string(pp.Packed) != string(full) {
				t.Fatalf("%s: parent packed %x, in full %x", name, pp.Packed, full)
			}
			exp.Expand(s, nil, func(next *State, l Label, v *Violation) {
				k := next.AppendKey(nil, in)
				if inc := par.AppendSuccessor(nil, next, l.Thread, in); string(inc) != string(k) {
					t.Fatalf("%s: after %+v: successor key %x, full key %x", name, l, inc, k)
				}
				if inc, full := pp.AppendSuccessor(nil, next, l.Thread, in), next.AppendPacked(nil, in); string(inc) != string(full) {
					t.Fatalf("%s: after %+v: successor packed %x, in full %x", name, l, inc, full)
				}
				if r, ok := byKey[string(k)]; ok {
					if !r.Equal(next) || r.Hash() != next.Hash() {
						t.Fatalf("%s: equal keys, Equal %v", name, r.Equal(next))
					}
					return
				}
				for _, o := range byHash[next.Hash()] {
					if o.Equal(next) {
						t.Fatalf("%s: Equal states with different keys", name)
					}
				}
				c := next.Clone()
				var u State
				if err := u.Unpack(c.AppendPacked(nil, in), len(c.Pages), in); err != nil || !u.Equal(c) {
					t.Fatalf("%s: pack and unpack: %v", name, err)
				}
				// Unpacked into a ParentPacked, the state packs its
				// successors as when set from the state.
				var up ParentPacked
				var us State
				if err := up.Unpack(&us, c.AppendPacked(nil, in), len(c.Pages), in); err != nil || !us.Equal(c) {
					t.Fatalf("%s: unpack into a parent: %v", name, err)
				}
				var set ParentPacked
				set.Set(&us, in)
				exp2.Expand(&us, nil, func(n2 *State, l2 Label, _ *Violation) {
					if a, b := up.AppendSuccessor(nil, n2, l2.Thread, in), set.AppendSuccessor(nil, n2, l2.Thread, in); string(a) != string(b) {
						t.Fatalf("%s: successor packed from the unpacked parent %x, from the parent set %x", name, a, b)
					}
				})
				for i := range c.Threads {
					a, b := c.Threads[i], u.Threads[i]
					a.Tag, b.Tag = 0, 0
					clear(a.Shadow[a.NShadow:])
					if a != b {
						t.Fatalf("%s: thread %d unpacked as %+v, was %+v", name, i, b, a)
					}
				}
				byKey[string(k)] = c
				byHash[c.Hash()] = append(byHash[c.Hash()], c)
				if v == nil {
					queue = append(queue, c)
				}
			})
		}
		total += len(byKey)
	}
	if total < 10000 {
		t.Errorf("only %d states in the corpus", total)
	}
}

// TestUnpackRejects: bytes that AppendPacked did not write are refused
// with ErrPacked, each kind of damage by its own check.
func TestUnpackRejects(t *testing.T) {
	in := newMapInterner()
	s := randomState(rand.New(rand.NewPCG(7, 8)), 2, 3)
	s.Atomic, s.AtomicDepth = 1, 1
	good := s.AppendPacked(nil, in)
	var u State
	if err := u.Unpack(good, 3, in); err != nil || !u.Equal(s) {
		t.Fatalf("a good state: %v", err)
	}
	bad := map[string][]byte{
		"empty":      nil,
		"no threads": {0},
		"too many":   {MaxThreads + 1},
		"cut":        good[:len(good)-1],
		"extra page": append(append([]byte(nil), good...), 0),
		"page id":    append(append([]byte(nil), good[:len(good)-1]...), 0x80, 0x80, 0x40),
		"thread id":  append([]byte{1, 0x80, 0x80, 0x40}, good[2:]...),
	}
	for _, f := range []struct {
		name string
		f    func(t *Thread)
	}{
		{"status", func(t *Thread) { t.Status = Exited + 1 }},
		{"shadow", func(t *Thread) { t.NShadow = MaxShadow + 1 }},
	} {
		// A thread the interner knows, in a state packed by hand.
		th := s.Threads[0]
		f.f(&th)
		if f.name == "status" {
			id := uint32(len(in.tkeys))
			in.tkeys = append(in.tkeys, th.Key())
			b := []byte{1, byte(id), 0, 0, 0, 0, 0, 0}
			for range 3 {
				b = append(b, 0)
			}
			bad[f.name] = b
			continue
		}
		bad[f.name] = []byte{1, 0, 0, 0, 0, MaxShadow + 1}
	}
	bad["atomic owner"] = append([]byte{1, 0, 0, 0, 0, 0}, 2, 1, 0, 0, 0)
	for name, b := range bad {
		var u State
		if err := u.Unpack(b, 3, in); !errors.Is(err, ErrPacked) {
			t.Errorf("%s: Unpack(%x) = %v, want ErrPacked", name, b, err)
		}
	}

	// A state of many pages, keyed by groups of them.
	np := 2*GroupPages + 3
	s = randomState(rand.New(rand.NewPCG(9, 10)), 1, np)
	good = s.AppendPacked(nil, in)
	if err := u.Unpack(good, np, in); err != nil || !u.Equal(s) {
		t.Fatalf("a good state of %d pages: %v", np, err)
	}
	var short Group // the last group, of three pages, with a fourth where the state has none
	for i := range short {
		short[i] = NoPage
		if 2*GroupPages+i < np {
			short[i] = in.PageID(s.Pages[2*GroupPages+i])
		}
	}
	short[3] = in.PageID(s.Pages[0])
	grouped := map[string][]byte{
		"group id":      append(append([]byte(nil), good[:len(good)-1]...), 0x7F),
		"too many":      append(append([]byte(nil), good...), 0),
		"cut":           good[:len(good)-1],
		"page count":    nil,
		"page in a gap": append(append([]byte(nil), good[:len(good)-1]...), byte(in.GroupID(&short))),
	}
	for name, b := range grouped {
		var u State
		want := np
		if name == "page count" {
			b, want = good, np+1
		}
		if err := u.Unpack(b, want, in); !errors.Is(err, ErrPacked) {
			t.Errorf("grouped, %s: Unpack(%x) = %v, want ErrPacked", name, b, err)
		}
	}
}

// TestThreadKeyRoundTrip: SetKey undoes Key, keeps the bookkeeping, and
// refuses nothing Key makes; keys with stray bits are not keys.
func TestThreadKeyRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for range 10000 {
		a := Thread{CPU: CPU{A: uint8(rnd.Uint32()), B: uint8(rnd.Uint32()), CCR: uint8(rnd.Uint32()),
			X: uint16(rnd.Uint32()), Y: uint16(rnd.Uint32()), SP: uint16(rnd.Uint32()), PC: uint16(rnd.Uint32())},
			Status: uint8(rnd.IntN(int(Exited) + 1)), CS: uint8(rnd.Uint32()), InitSP: uint16(rnd.Uint32())}
		b := Thread{PrevPC: 7, Cycles: 9, Tag: 3}
		b.SetKey(a.Key())
		if b.Key() != a.Key() || b.CPU != a.CPU || b.Status != a.Status || b.CS != a.CS || b.InitSP != a.InitSP ||
			b.PrevPC != 7 || b.Cycles != 9 || b.Tag != 0 || !a.Key().Valid() {
			t.Fatalf("SetKey(Key(%+v)) gave %+v", a, b)
		}
	}
	if (ThreadKey{0, 1 << 63}).Valid() || (ThreadKey{uint64(Exited+1) << 56, 0}).Valid() {
		t.Errorf("a key with stray bits or an undefined status is valid")
	}
}

// TestLabelRoundTrip: ReadLabel reads what AppendLabel wrote, one-byte
// labels and full ones, and refuses cut ones.
func TestLabelRoundTrip(t *testing.T) {
	for _, l := range []Label{
		{Thread: 0, IRQ: -1, Steps: 1}, {Thread: 63, IRQ: -1, Steps: 1}, {Thread: 2, IRQ: 20, Steps: 1},
		{Thread: 1, IRQ: -1, Steps: 100000}, {Thread: 0, IRQ: -1, Steps: 1, Choice: 255}, {Thread: 5, IRQ: 0, Steps: 3, Choice: 1 << 40},
	} {
		b := AppendLabel([]byte{0xEE}, l)[1:]
		got, n := ReadLabel(append(b, 0xFF))
		if got != l || n != len(b) {
			t.Errorf("%+v: read back %+v in %d of %d bytes", l, got, n, len(b))
		}
		if len(b) > 1 {
			if _, n := ReadLabel(b[:len(b)-1]); n != 0 {
				t.Errorf("%+v: a cut label read as %d bytes", l, n)
			}
		}
	}
}
