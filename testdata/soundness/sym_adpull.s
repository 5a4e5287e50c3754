; sym_adpull.s -- the fast read of the A/D results: SP is pointed just
; below ADR1 (0x1031) and PULA, PULB and PULX take the four results in
; four bytes of code, after which SP is put back.  A reading at full scale
; (0xFF) on channel 3 is not handled.
;
; Expected verdict: violation `assert' (--preempt every --input
; 0x1031=0x10,0x80 --input 0x1032=0x10,0x80 --input 0x1033=0x10,0x80
; --input 0x1034=0x10,0xFF).
;
;     void main(void) {
;         unsigned char a = ADR1, b = ADR2;
;         unsigned int  x = ADR3 << 8 | ADR4;
;         __mc_assert((x & 0xFF) != 0xFF);   /* BUG: channel 4 saturates */
;         __mc_thread_exit();
;     }
;
; Counterexample: ADR4 reads 0xFF.  The pulls read --input addresses; a
; concrete step that ran them on the first listed value (0x10) never saw
; 0xFF.  sym_adpull_ok.s is the fixed program.

        .include "harness.inc"

        ADR1 = 0x1031

        .sect   .bss
stack0: .skip   16
savesp: .skip   2
chans:  .skip   4

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+16-1
        sts     savesp
        lds     #ADR1-1                 ; the next pull reads ADR1
        pula                            ; ADR1
        pulb                            ; ADR2
        pulx                            ; ADR3:ADR4
        lds     savesp
        std     chans
        stx     chans+2
        ldaa    chans+3                 ; channel 4
        inca                            ; BUG: 0xFF + 1 = 0
        jsr     __mc_assert
        jsr     __mc_thread_exit

        vector_table _start
