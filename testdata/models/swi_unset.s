; swi_unset.s -- a system call through SWI whose vector the image leaves
; unprogrammed.
;
; Expected verdict: violation `illegal-opcode' (any --preempt; one thread).
;
;     unsigned char ticks;
;
;     void main(void) {
;         ticks = 1;
;         __swi();                          /* BUG: the SWI vector is 0 */
;         __mc_thread_exit();
;     }
;     /* SWI handler, written but not in the vector table */
;     void service(void) { ticks++; }
;
; Reasoning: the vector table holds 0 at 0xFFF6, so SWI would jump to
; address 0 -- the firmware's variables, not code.  An SWI through a vector
; the image does not program is an illegal-opcode violation.  Straight-line
; path: lds, ldaa, staa, and swi (4 transitions).

        .include "harness.inc"

        .sect   .bss
ticks:  .skip   1
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldaa    #1
        staa    ticks
        swi                             ; service()
        jsr     __mc_thread_exit

; void service(void) -- see the header; the vector table does not name it.
service:
        inc     ticks
        rti

        vector_table _start
