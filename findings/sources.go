package findings

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hc11mc/hc11mc/cex"
	"github.com/hc11mc/hc11mc/loader"
)

// maxParents bounds how far up from the image's directory a source file
// named relative to the assembler's directory is looked for.
const maxParents = 4

// sources finds the source files an image's line table names, and the
// column of an instruction on its line.
type sources struct {
	img   *loader.Image
	paths map[string]string   // the line table's name -> the path found ("" for none)
	lines map[string][]string // the path found -> its lines
}

func newSources(img *loader.Image) *sources {
	return &sources{img: img, paths: map[string]string{}, lines: map[string][]string{}}
}

// locate is where the instruction at pc is: its source line, else the
// image and the address.
func (s *sources) locate(pc uint16) Location {
	l := Location{Image: s.img.Path, Addr: pc, Symbol: cex.SymAddr(s.img, pc)}
	le, ok := s.img.LineAt(pc)
	if !ok || le.File == "" || le.Line <= 0 {
		return l
	}
	l.File, l.Line, l.Column = s.path(le.File), le.Line, 1
	if text := s.line(l.File, le.Line); text != "" {
		l.Column = mnemonicColumn(text)
	}
	return l
}

// path finds the file the line table names name: as named (an absolute
// path, or one relative to the working directory), else relative to the
// image's directory or one of its parents; name itself when none exists.
func (s *sources) path(name string) string {
	if p, ok := s.paths[name]; ok {
		return p
	}
	p := name
	if !exists(name) && !filepath.IsAbs(name) {
		dir := filepath.Dir(s.img.Path)
		for range maxParents + 1 {
			if c := filepath.Join(dir, name); exists(c) {
				p = c
				break
			}
			up := filepath.Dir(dir)
			if up == dir {
				break
			}
			dir = up
		}
	}
	s.paths[name] = p
	return p
}

func exists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// line is line n of the file at p, "" when it cannot be read.
func (s *sources) line(p string, n int) string {
	ls, ok := s.lines[p]
	if !ok {
		if b, err := os.ReadFile(p); err == nil {
			ls = strings.Split(string(b), "\n")
		}
		s.lines[p] = ls
	}
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}

// mnemonicColumn is the 1-based column, in characters, of the instruction
// on an assembler source line: after the leading blanks and a label
// ("name:") if the line has one; 1 for a line with neither.
func mnemonicColumn(line string) int {
	rs := []rune(line)
	i := 0
	skip := func() {
		for i < len(rs) && (rs[i] == ' ' || rs[i] == '\t') {
			i++
		}
	}
	skip()
	j := i
	for j < len(rs) && rs[j] != ' ' && rs[j] != '\t' && rs[j] != ':' && rs[j] != ';' {
		j++
	}
	if j < len(rs) && rs[j] == ':' {
		i = j + 1
		skip()
	}
	if i >= len(rs) || rs[i] == ';' {
		return 1
	}
	return i + 1
}
