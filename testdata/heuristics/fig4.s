; fig4.s -- Figure 4(b) of Rungta & Mercer, "A context-sensitive structural
; heuristic for guided search model checking": two levels of calls,
; main -> x -> f -> g and main -> y -> f -> g, and the error after the call
; of y.  One instruction per statement of the figure, its line number on the
; right.  (`x' and `y' are register names to the assembler, so the
; procedures are called xfun and yfun.)
;
; The target is the label `error'.  Distances count instructions executed,
; the target itself being 0.  At the first entry to g (PC = g; return
; addresses ret_fg into f, ret_xf into x, ret_x into main):
;
;   FSM distance on the ICFG          4   09 0a 08 06 -> error (false returns)
;   AICFG(1)                          4   f's return still guesses x or y
;   AICFG(2)                         11   the true distance
;   extended FSM, k = 0 and k = 1    11   the true distance (Section 3.2)
;
; heuristics/figures_test.go checks exactly these numbers.

        .include "harness.inc"

        .sect   .text
        .globl  _start
_start:
        lds     #0x01ff         ;     (not in the figure: the stack)
main:
        jsr     xfun            ; 01: call x
ret_x:  jsr     yfun            ; 02: call y
error:  jsr     __mc_error      ;     error
done:   bra     done

xfun:   jsr     f               ; 03: call f
ret_xf: rts                     ; 04: rts

yfun:   jsr     f               ; 05: call f
ret_yf: rts                     ; 06: rts

f:      jsr     g               ; 07: call g
ret_fg: rts                     ; 08: rts

g:      nop                     ; 09: xyz
        rts                     ; 0a: rts

        vector_table _start
