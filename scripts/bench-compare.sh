#!/usr/bin/env bash
# bench-compare.sh -- the benchmarks of two commits, side by side.
#
#   scripts/bench-compare.sh OLD [NEW]      (or: make bench-compare OLD=<commit>)
#
# Builds the test binaries of sim, search and the command line at OLD (in a
# temporary worktree) and at NEW (default: the working tree), then runs
# them ROUNDS times (default 6), alternating old and new so that the
# machine's slow and fast spells fall on both alike, and prints benchstat's
# comparison.  BENCH selects the benchmarks (a -test.bench pattern, default
# 'RunLoop|Successors|Search$|Workloads'); BENCHTIME is -test.benchtime
# (default 1s).  Installs benchstat into GOPATH/bin when missing.
set -euo pipefail

old=${1:?usage: bench-compare.sh OLD [NEW]}
new=${2:-}
ROUNDS=${ROUNDS:-6}
BENCH=${BENCH:-'RunLoop|Successors|Search$|Workloads'}
BENCHTIME=${BENCHTIME:-1s}
PKGS="sim search cli"

root=$(cd "$(dirname "$0")/.." && pwd)
say() { printf '%s\n' "$*" >&2; }

benchstat=$(go env GOPATH)/bin/benchstat
if [ ! -x "$benchstat" ]; then
    say "installing benchstat"
    (cd "$root" && GOFLAGS=-mod=mod go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)
fi

work=$(mktemp -d)
cleanup() {
    git -C "$root" worktree remove --force "$work/old" >/dev/null 2>&1 || true
    [ -n "$new" ] && { git -C "$root" worktree remove --force "$work/new" >/dev/null 2>&1 || true; }
    rm -rf "$work"
}
trap cleanup EXIT

pkgdir() { # pkgdir TREE PKG -- the folder of PKG in TREE: the command line's
    # package is cmd/hc11mc/internal/cli, internal/cli at older commits
    if [ "$2" = cli ]; then
        if [ -d "$1/cmd/hc11mc/internal/cli" ]; then echo cmd/hc11mc/internal/cli; else echo internal/cli; fi
    else
        echo "$2"
    fi
}

tree() { # tree NAME COMMIT -- a worktree of COMMIT, or the working tree
    if [ -z "$2" ]; then echo "$root"; return; fi
    git -C "$root" worktree add -q --detach "$work/$1" "$2"
    echo "$work/$1"
}
oldtree=$(tree old "$old")
newtree=$(tree new "$new")

for side in old new; do
    t=$oldtree; [ $side = new ] && t=$newtree
    for p in $PKGS; do
        say "building $side $p"
        (cd "$t" && go test -c -o "$work/$side-$p.test" "./$(pkgdir "$t" "$p")")
    done
done

for r in $(seq 1 "$ROUNDS"); do
    for side in old new; do
        t=$oldtree; [ $side = new ] && t=$newtree
        for p in $PKGS; do
            say "round $r/$ROUNDS: $side $p"
            (cd "$t/$(pkgdir "$t" "$p")" && "$work/$side-$p.test" -test.run '^$' -test.bench "$BENCH" \
                -test.benchtime "$BENCHTIME" -test.benchmem) >>"$work/$side.txt" 2>/dev/null || true
        done
    done
done
# The command line's package moved (internal/cli, now cmd/hc11mc/internal/cli):
# one name on both sides, so that benchstat sets its rows side by side.
sed -i 's|^pkg: .*/internal/cli$|pkg: github.com/hc11mc/hc11mc/cli|' "$work/old.txt" "$work/new.txt"
"$benchstat" old="$work/old.txt" new="$work/new.txt"
