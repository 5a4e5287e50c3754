; port_poll.s -- a thread reads the sensor switches on PORTE and asserts
; that not all of them are on, a case it does not handle.
;
; Expected verdict: verified, with PORTE held at 0: no --input drives it,
; and the harness model's register block is plain memory, which reads 0
; (check says so: "input held: ... PORTE (0x100A)").  With --input
; 0x100A: violation `assert' (any --preempt; one thread).
;
;     #define PORTE (*(volatile unsigned char *)0x100A)
;
;     void main(void) {
;         unsigned char s = PORTE;          /* the sensor switches */
;         __mc_assert(s != 0xFF);           /* BUG: all on is not handled */
;         __mc_thread_exit();
;     }
;
; Reasoning: without --input the read returns the register block's 0, and
; the assertion holds; the verdict is only as wide as that one value.
; With --input 0x100A the read has 256 successors; the one with 0xFF
; fails the assertion.  Shortest counterexample: 7 transitions (lds, ldab
; with its choice, clra, cmpb, beq, jsr __mc_assert, the assert call).

        .include "harness.inc"

        PORTE = 0x100A

        .sect   .bss
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldab    PORTE                   ; s = PORTE
        clra
        cmpb    #0xFF
        beq     pp_bad
        inca                            ; A = (s != 0xFF)
pp_bad:
        jsr     __mc_assert
        jsr     __mc_thread_exit

        vector_table _start
