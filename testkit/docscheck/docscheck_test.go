package docscheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the repository, from this package's directory.
const root = "../.."

// pages returns README.md and docs/*.md, relative to root.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md"}
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

func read(t *testing.T, page string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every relative link of every page names a file that exists and, with
// #anchor, a heading of that page (or of the page itself for #anchor).
func TestLinksResolve(t *testing.T) {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(page string) map[string]bool {
		if a, ok := anchors[page]; ok {
			return a
		}
		a := Anchors(read(t, page))
		anchors[page] = a
		return a
	}
	for _, page := range pages(t) {
		for _, l := range Links(read(t, page)) {
			if External(l.Target) {
				continue
			}
			file, anchor, _ := strings.Cut(l.Target, "#")
			target := page
			if file != "" {
				target = filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
				if strings.HasPrefix(target, "../") {
					t.Errorf("%s:%d: %s leaves the repository", page, l.Line, l.Target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
					t.Errorf("%s:%d: %s: no file %s", page, l.Line, l.Target, target)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(target, ".md") {
				t.Errorf("%s:%d: %s: an anchor in a file that is not markdown", page, l.Line, l.Target)
				continue
			}
			if !anchorsOf(target)[anchor] {
				t.Errorf("%s:%d: %s: %s has no heading #%s", page, l.Line, l.Target, target, anchor)
			}
		}
	}
}

// The README is the front door: short, and every page of docs/ can be
// reached from it (directly or through other pages).
func TestReadmeIsAFrontDoor(t *testing.T) {
	readme := read(t, "README.md")
	if n := strings.Count(strings.TrimRight(readme, "\n"), "\n") + 1; n > MaxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail into docs/", n, MaxReadmeLines)
	}
	reached := map[string]bool{"README.md": true}
	queue := []string{"README.md"}
	for len(queue) > 0 {
		page := queue[0]
		queue = queue[1:]
		for _, l := range Links(read(t, page)) {
			file, _, _ := strings.Cut(l.Target, "#")
			if External(l.Target) || !strings.HasSuffix(file, ".md") {
				continue
			}
			target := filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil || reached[target] {
				continue
			}
			reached[target] = true
			queue = append(queue, target)
		}
	}
	for _, page := range pages(t) {
		if !reached[page] {
			t.Errorf("%s: no link leads there from README.md", page)
		}
	}
}

// The tables `make results` and the other results-* targets regenerate:
// the Makefile's awk (written out, or its splice) replaces what lies
// between <!-- NAME:begin and <!-- NAME:end in the page it rewrites; each
// pair must be there, once, in that page, and in no other.
func TestRegeneratedTablesHaveTheirMarkers(t *testing.T) {
	mk := read(t, "Makefile")
	rule := regexp.MustCompile(`(?s)/<!-- ([a-z0-9-]+):begin/.*?/<!-- ([a-z0-9-]+):end/.*?' \S+ (\S+\.md) > \S+\s+mv \S+ (\S+\.md)`)
	found := rule.FindAllStringSubmatch(mk, -1)
	if len(found) < 2 {
		t.Fatalf("the Makefile has %d rules that rewrite a marked table, want the two of results and results-hmc", len(found))
	}
	// The rules written with the Makefile's splice: $(call splice,NAME,TABLE,PAGE).
	for _, m := range regexp.MustCompile(`\$\(call splice,([a-z0-9-]+),[^,)]+,([^,)]+\.md)\)`).FindAllStringSubmatch(mk, -1) {
		found = append(found, []string{m[0], m[1], m[1], m[2], m[2]})
	}
	for _, m := range found {
		name, page := m[1], m[3]
		if m[2] != name || m[4] != page {
			t.Errorf("Makefile: the rule for %s reads %s and writes %s (markers %s, %s)", name, page, m[4], m[1], m[2])
			continue
		}
		for _, other := range pages(t) {
			text := read(t, other)
			begin := strings.Count(text, "<!-- "+name+":begin")
			end := strings.Count(text, "<!-- "+name+":end")
			want := 0
			if other == page {
				want = 1
			}
			if begin != want || end != want {
				t.Errorf("%s: %d begin and %d end markers of %s, want %d of each (the Makefile rewrites %s)", other, begin, end, name, want, page)
			}
			if other == page && want == 1 && strings.Index(text, "<!-- "+name+":end") < strings.Index(text, "<!-- "+name+":begin") {
				t.Errorf("%s: the end marker of %s comes before its begin", other, name)
			}
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"The heuristic's blind spot":                               "the-heuristics-blind-spot",
		"hc11mc — a model checker for 68HC11 firmware":             "hc11mc--a-model-checker-for-68hc11-firmware",
		"Real firmware: the chip's peripherals as the environment": "real-firmware-the-chips-peripherals-as-the-environment",
		"`--engine auto`":                  "--engine-auto",
		"BMC, ST and HMC compared":         "bmc-st-and-hmc-compared",
		"The [swarm](swarm.md) in *brief*": "the-swarm-in-brief",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAnchorsAndLinks(t *testing.T) {
	md := "# Title\n\nSee [a](b.md#c) and ![pic](p.svg).\n\n```\n[not](a-link.md)\n# not a heading\n```\n\n" +
		"## Title\n\n`[code](span.md)` <a id=\"here\"></a>\n"
	var got []string
	for _, l := range Links(md) {
		got = append(got, l.Target)
	}
	if want := []string{"b.md#c", "p.svg"}; !slices.Equal(got, want) {
		t.Errorf("Links = %q, want %q", got, want)
	}
	a := Anchors(md)
	for _, want := range []string{"title", "title-1", "here"} {
		if !a[want] {
			t.Errorf("Anchors lacks %q: %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Errorf("a heading inside a fence counted: %v", a)
	}
}
