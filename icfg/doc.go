// Package icfg recovers the static control-flow structure of 68HC11
// firmware: procedures found by recursive-descent disassembly, one
// control-flow graph per procedure, the interprocedural control-flow graph
// (ICFG) and the augmented ICFG with a bounded calling context, AICFG(k),
// of Rungta & Mercer, "A context-sensitive structural heuristic for guided
// search model checking" (the paper). On these graphs it computes the
// distance tables the heuristics need, and it prints the structure for the
// cfg command as text, JSON or Graphviz DOT.
//
// It is not a simulator (package sim executes instructions), not a data-flow
// analysis (beyond the few constants it tracks to find thread entries and
// jump tables), and it does not combine distances into a heuristic value
// (package heuristics does).
//
// # Graphs and distances
//
// A vertex is one instruction (the paper's choice: "we treat each single
// instruction as a basic block"). An edge is one instruction executed, so a
// distance is the number of instructions a thread executes until its PC
// equals a target address: 0 at the target, 1 at a JSR to it. This is the
// unit of DESIGN.md's estimate command.
//
// Build disassembles and groups instructions into procedures (Program).
// Program.AICFG(k) builds AICFG(k) as in Figure 2: abstract states (PC, up to
// k return addresses) generated depth-first from the abstract successors of
// each state; Program.ICFG is AICFG(0), with one vertex per decoded
// instruction. Graph.Lookup is the paper's abs. A context with fewer than k
// return addresses is the whole stack ((init) when empty); one with exactly
// k is the top of a stack that may be deeper, so a return from it goes to
// every return address that may lie below (a return point of a call of the
// procedure that made the last call), and to the shorter, exact context if
// that procedure may run on an empty stack. The ICFG's exits go to every
// return point of their procedure (Definition 2). Graph implements
// github.com/yourbasic/graph's Iterator; the distance tables use that
// library's BFS and Dijkstra (from a virtual source joined to all targets)
// and its strongly connected components mark recursion.
//
// Graph.DistancesTo is the FSM distance (a breadth-first search backwards
// from the targets). Graph.FrameTables holds what Figure 5 asks of each
// frame: the distance to a target without leaving the frame ("in scope"),
// the distance to the frame's return (FSM(sa, srts)), and whether the target
// post-dominates the vertex. These are computed over same-level paths: a
// path may enter callees, or cross a call by a summary edge of length 1 +
// the callee's distance to its exit + 1, but never returns from the
// activation it starts in; the summaries are found with Knuth's
// generalisation of Dijkstra's algorithm. Figure 5 instead forbids passing
// the frame's abstract return vertex srts; in a recursive procedure that
// vertex is shared with the activations nested in the frame (always when
// k = 0), and forbidding it makes a reachable target look out of scope: the
// estimate would exceed the true distance, or be infinite. Summary edges keep
// the tables exact and admissible. A consequence: these tables do not depend
// on k, so the extended FSM distance is the same for every k; k still
// matters for the plain AICFG distance.
//
// # Decisions
//
// Roots. The reset vector (index 31) when the image loads it; the image's
// entry point when it differs (--entry); every other loaded, non-zero vector
// that points to decodable code, except words inside a table of JMP
// instructions (0x7E and an address, at least four in a row, each to
// executable bytes) that reaches into the vector area: a monitor's entry
// points for user programs (BUFFALO's fill 0xFF7C-0xFFD2, whose words at
// 0xFFC0-0xFFD2 would read as vectors), each JMP a root of its own; every thread entry passed to
// __mc_thread_create, when D is a constant in the straight-line block that
// ends at the call (LDD #e; LDAA #hi / LDAB #lo; LDX #e then XGDX; CLRA,
// CLRB, TAB, TBA are followed too); and, last, function symbols (ELF
// STT_FUNC) and global untyped labels in executable segments, when a trial
// decoding from them reaches only loaded, executable bytes that decode, none
// of them TEST (0x00, the filler of data), and does not overlap known code.
// A symbol inside code already found is not a root. Options.NoSymbolRoots
// turns symbol roots off.
//
// Procedures. The roots, the targets of JSR/BSR (and of resolved indirect
// calls) and the harness stubs. A procedure's body is what its activation
// executes: the instructions reached from its entry, calls crossed to their
// return points, callees not entered. A JMP, branch, fall-through or return
// point that lands on another procedure's entry is a tail call: the body
// stops there, the activation continues in the other procedure, and that
// procedure's exits also return wherever the caller's would. Code reached
// from several entries belongs to each of them. The end vertices are the
// RTS and RTI instructions (there may be several; distances go to the
// nearest).
//
// Harness stubs. A symbol named like a harness routine (loader.Stub) is a
// procedure of one vertex at its address, whose body is never decoded: when
// a thread's PC reaches it the checker performs the effect as one step and
// returns as RTS would. A call of a stub therefore costs two steps, the
// JSR/BSR (PC becomes the stub's address) and the effect (PC becomes the
// return point); a target at a stub's address is one step from the JSR.
// __mc_thread_exit ends the thread: its vertex has no successor, and code
// after a call of it is not decoded.
//
// Indirect jumps and calls (JMP/JSR ff,X and ff,Y, and an RTS that pops
// a word PSHX or PSHY pushed). The registers there come from a forward data
// flow over the code found so far (flow.go): constants, pointers into a
// table (LDX #tbl … ABX, INX, DEX), a word loaded from one (LDX n,X), up to
// four RAM words stored with STX/STY at a constant address (a pointer a
// search loop keeps in RAM), and the word last pushed; a call forgets the
// RAM words and the registers. The states of the predecessors of the
// site's block are kept apart, and every one must give targets: a constant
// index register (LDX #f; LDX from read-only memory), or the words of a
// table. A table of words runs for the size of the data symbol that
// covers it, or else until a word that does not point to code, the next
// symbol, known code, or Options.MaxTableEntries words; failing that, a
// table of records is read: a length byte, that many printable characters
// and an address (a monitor's command table, BUFFALO's at 0xE54E), or
// records of 3 to 8 bytes with an address at the same offset. An RTS is a
// dispatch only where every state pushed a known address. Sites are
// resolved again in every round; their targets only grow. Otherwise the
// site is unresolved and, as the paper assumes, connected to every
// procedure entry except the harness stubs (a JMP as tail calls, a JSR as
// calls); Program.Indirect and the report list every site. RAM the
// disassembly never sees written (an indexed store through an unknown
// pointer forgets all, but stores in code not found cannot) may make a
// resolution incomplete: the ICFG serves heuristics and coverage, never a
// verdict.
//
// Interrupts. Interrupt handlers are roots of their own, entered on an empty
// context; no edge leads from ordinary instructions into a handler, and an
// RTI on an empty context ends the path. This is the paper's choice
// (Section 2): an interrupt may come anywhere and return anywhere, and edges
// from every instruction would give every vertex a short false path. SWI,
// TEST, undecodable bytes and unloaded memory end a path; WAI and STOP fall
// through (execution resumes there after an interrupt); BRN falls through.
//
// Everything here is built once per image; Graph.Lookup and the tables are
// read-only afterwards and may be shared between goroutines once built
// (ExitDistances and the other lazily built parts are filled on first use:
// call them before sharing).
package icfg
