; fig1.s -- Figure 1 of Rungta & Mercer, "A context-sensitive structural
; heuristic for guided search model checking": main calls foo twice and then
; checks for the error.  One instruction per statement of the figure, its
; line number on the right.
;
; The target is the label `error' (statement 05).  Distances count
; instructions executed, the target itself being 0:
;
;   at the first entry to foo (PC = foo, return address ret1 on the stack)
;     FSM distance on the ICFG       3   foo, 07, 08 -> error (a false return)
;     extended FSM distance          8   06 07 08 03 04 06 07 08 -> error
;
; heuristics/figures_test.go checks exactly these numbers.

        .include "harness.inc"

        .sect   .text
        .globl  _start
_start:
        lds     #0x01ff         ;     (not in the figure: the stack)
main:
        ldx     #1              ; 01: ldx #1
        jsr     foo             ; 02: call foo
ret1:   inx                     ; 03: add x,1
        jsr     foo             ; 04: call foo
error:  jsr     __mc_error      ; 05: check for error
done:   bra     done

foo:    pshx                    ; 06: pshx
        pulx                    ; 07: pulx
        rts                     ; 08: rts

        vector_table _start
