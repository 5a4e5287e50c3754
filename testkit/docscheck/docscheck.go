// Package docscheck reads the project's markdown pages — README.md and
// docs/*.md — as a renderer of GitHub-flavoured markdown would, far enough
// to check them: the links each page makes, and the anchors its headings
// define. Its test keeps the pages honest: every relative link names a
// file that exists and, with #anchor, a heading in it; every page in docs/
// is reachable from the README; the README stays a front door (at most
// MaxReadmeLines lines); and the tables the Makefile regenerates keep
// their markers in the page the Makefile rewrites.
package docscheck

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// MaxReadmeLines is the most lines README.md may have: what a newcomer
// reads first, with everything else in docs/.
const MaxReadmeLines = 250

// Link is a link or image reference in a page.
type Link struct {
	Line   int    // 1-based
	Target string // as written, e.g. "docs/cli.md#exit-codes"
}

var (
	fence      = regexp.MustCompile("^ {0,3}(```|~~~)")
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	heading    = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	htmlID     = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	mdLinkText = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// lines returns the page's lines outside fenced code blocks, with code
// spans removed, numbered from 1; lines inside fences are returned empty.
func lines(md string) []string {
	src := strings.Split(md, "\n")
	out := make([]string, len(src))
	inFence := ""
	for i, l := range src {
		if m := fence.FindStringSubmatch(l); m != nil {
			switch {
			case inFence == "":
				inFence = m[1]
				continue
			case m[1] == inFence:
				inFence = ""
				continue
			}
		}
		if inFence != "" {
			continue
		}
		out[i] = codeSpan.ReplaceAllString(l, "")
	}
	return out
}

// Links returns the inline links and images of a page, outside code.
func Links(md string) []Link {
	var out []Link
	for i, l := range lines(md) {
		for _, m := range inlineLink.FindAllStringSubmatch(l, -1) {
			out = append(out, Link{Line: i + 1, Target: m[1]})
		}
	}
	return out
}

// Anchors returns the anchors a page defines: one per heading, named as
// GitHub names them (Slug, with -1, -2, ... for repeats), and those of
// <a id="..."> or <a name="..."> tags.
func Anchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	src := strings.Split(md, "\n")
	for i, l := range lines(md) {
		if m := heading.FindStringSubmatch(l); m != nil {
			// The heading's text with its code spans, which lines removed.
			raw := heading.FindStringSubmatch(src[i])[2]
			s := Slug(raw)
			if n := seen[s]; n > 0 {
				out[s+"-"+strconv.Itoa(n)] = true
			} else {
				out[s] = true
			}
			seen[s]++
		}
		for _, m := range htmlID.FindAllStringSubmatch(src[i], -1) {
			out[m[1]] = true
		}
	}
	return out
}

// Slug is the anchor GitHub gives a heading: its text without markup,
// lower case, with every character but letters, digits, '-', '_' and
// spaces dropped, and spaces made hyphens.
func Slug(text string) string {
	text = mdLinkText.ReplaceAllString(text, "$1")
	text = strings.NewReplacer("`", "", "*", "").Replace(text)
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// External reports whether a link target leaves the repository (a URL
// with a scheme, or mail).
func External(target string) bool {
	i := strings.Index(target, ":")
	if i <= 0 {
		return false
	}
	for _, r := range target[:i] {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
