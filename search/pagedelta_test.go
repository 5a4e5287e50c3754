package search

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hc11mc/hc11mc/internal/mutation"
	"github.com/hc11mc/hc11mc/sim"
)

// Pages and groups kept as differences (store.go): the store's ids and
// contents against a plain reference, a Go map from contents to the id
// of their first appearance. Pages are drawn as a firmware's are written:
// each a copy of an earlier one (its Base) with a few bytes changed, or
// many, or none; groups likewise with a few entries changed.

// deltaDiff interns n pages and n groups drawn from seed into a new store
// and returns the first disagreement with the reference, "" for none.
func deltaDiff(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 0xde17a))
	st := newStore(false)
	type seen struct {
		page *sim.Page
		id   uint32
	}
	var pages []seen
	ref := map[[sim.PageSize]byte]uint32{}
	for i := range n {
		p := &sim.Page{}
		if len(pages) > 0 {
			from := pages[r.IntN(len(pages))].page
			p.Data, p.Base = from.Data, from.Tag
			changes := []int{0, 1, 2, 3, 5, 16, 17, 40}[r.IntN(8)]
			for range changes {
				p.Data[r.IntN(sim.PageSize)] = uint8(r.IntN(4)) // few values: pages meet again
			}
		}
		id := st.PageID(p)
		want, ok := ref[p.Data]
		if !ok {
			want = uint32(len(ref))
			ref[p.Data] = want
		}
		if id != want {
			return fmt.Sprintf("seed %d, page %d: id %d, the reference's %d", seed, i, id, want)
		}
		if got := st.pageData(id); got != p.Data {
			return fmt.Sprintf("seed %d, page %d: the store gives back other contents for id %d", seed, i, id)
		}
		pages = append(pages, seen{p, id})
	}
	for id, c := range pagesOf(ref) {
		if st.pageData(uint32(id)) != c {
			return fmt.Sprintf("seed %d: page %d's contents changed as the store grew", seed, id)
		}
	}
	var groups []sim.Group
	gref := map[sim.Group]uint32{}
	for i := range n {
		var g sim.Group
		if len(groups) > 0 {
			g = groups[r.IntN(len(groups))]
		}
		changes := []int{0, 1, 2, 4, 5, 20}[r.IntN(6)]
		for range changes {
			g[r.IntN(sim.GroupPages)] = uint32(r.IntN(6))
		}
		id := st.GroupID(&g)
		want, ok := gref[g]
		if !ok {
			want = uint32(len(gref))
			gref[g] = want
		}
		if id != want {
			return fmt.Sprintf("seed %d, group %d: id %d, the reference's %d", seed, i, id, want)
		}
		if got := st.Group(id); got == nil || *got != g {
			return fmt.Sprintf("seed %d, group %d: the store gives back other entries for id %d", seed, i, id)
		}
		groups = append(groups, g)
	}
	if len(st.pageFull) == st.nPages() || len(st.groups.full) == st.groups.n() {
		return fmt.Sprintf("seed %d: %d of %d pages and %d of %d groups kept whole: no differences drawn", seed,
			len(st.pageFull), st.nPages(), len(st.groups.full), st.groups.n())
	}
	return ""
}

// pagesOf lists the reference's pages by id.
func pagesOf(ref map[[sim.PageSize]byte]uint32) [][sim.PageSize]byte {
	out := make([][sim.PageSize]byte, len(ref))
	for c, id := range ref {
		out[id] = c
	}
	return out
}

// TestPageDeltaDifferential: pages and groups kept as differences are
// numbered and given back as the reference does, and most of them are
// kept so.
func TestPageDeltaDifferential(t *testing.T) {
	for seed := range uint64(20) {
		if bad := deltaDiff(seed, 3000); bad != "" {
			t.Fatal(bad)
		}
	}
	st := newStore(false)
	p := &sim.Page{}
	st.PageID(p)
	for i := range 100 {
		q := &sim.Page{Data: p.Data, Base: p.Tag}
		q.Data[i%sim.PageSize]++
		st.PageID(q)
		p = q
	}
	if full := len(st.pageFull); full > 100/maxDeltaDepth+2 {
		t.Errorf("a page changed a byte at a time: %d of 101 pages kept whole", full)
	}
}

// TestPageDeltaDifferentialCatches: with the fault delta-loses (a page
// kept as differences loses its last one) the comparison fails.
func TestPageDeltaDifferentialCatches(t *testing.T) {
	defer mutation.Set(mutation.DeltaLoses)()
	if bad := deltaDiff(1, 3000); bad == "" {
		t.Fatal("with the last difference lost, the store still agrees with the reference")
	} else {
		t.Log(bad)
	}
}
