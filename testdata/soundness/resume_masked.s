; resume_masked.s -- firmware reads its write-protect flag from an
; address an equate gives it, which lies inside the stack: the byte a
; routine saved there and pulled again.  Checked with the chip's
; peripherals on (--peripherals on), as firmware on the real chip.
;
; Expected verdict: violation `rom-write' (--preempt every --peripherals
; on), also when the search is cut by --max-states (--search bfs) and
; resumed.
;
;     #define WPROT (*(unsigned char *)0x01FD)  /* BUG: in the stack */
;
;     void setup(unsigned char sw) {            /* sw saved on the stack */
;         /* ... */
;     }
;
;     void main(void) {                         /* SP = 0x01FF */
;         setup(nondet(1));                     /* a DIP switch: 0 or 1 */
;         for (unsigned char n = 40; n; n--)    /* start-up delay */
;             ;
;         if (WPROT)                            /* 0x01FD: setup's sw */
;             *(unsigned char *)0xE000 = 0;     /* into ROM */
;         for (;;)
;             ;
;     }
;
; Counterexample: the switch reads 1, setup saves it at 0x01FD, and the
; firmware reads it back as the flag and writes to ROM.  Dead-data
; elimination leaves the bytes below SP out of states, so the states of
; the two switch settings after setup are one state, and a read of such a
; byte (the flag) is seen and makes the search start again without the
; elimination.  A search saved after the merge and resumed on a machine
; that had not learned which bytes pulls had left below SP masked
; nothing, checked no read against the masked set, never followed the
; path of the switch that was merged away, and reported `verified'.
; resume_masked_ok.s is the fixed program.

        .include "harness.inc"

        STACK_TOP = 0x01FF
        WPROT     = 0x01FD              ; BUG: setup's saved byte
        ROM_LOG   = 0xE000

        .sect   .text
        .globl  _start
_start:
        lds     #STACK_TOP
        ldd     #1
        jsr     __mc_nondet             ; B = the switch
        jsr     setup
        ldaa    #40
delay:
        deca
        bne     delay
        ldab    WPROT
        beq     idle
        staa    ROM_LOG                 ; a write into ROM
idle:
        bra     idle

; void setup(unsigned char sw) -- sw in B, saved on the stack.
setup:
        pshb
        nop                             ; ...
        pulb
        clrb
        rts

        vector_table _start
