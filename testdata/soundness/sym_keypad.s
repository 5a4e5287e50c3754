; sym_keypad.s -- a keypad scan: the row lines come in on PORTC, and a
; BRCLR on each column bit skips the keys not pressed.  Key 2 (bit 2)
; has no handler yet.
;
; Expected verdict: violation `assert' (--preempt every --input
; 0x1003=0x00,0x01,0x04).
;
;     #define PORTC (*(volatile unsigned char *)0x1003)
;
;     void main(void) {
;         unsigned char k = PORTC;        /* read once per test below */
;         if (PORTC & 0x01) count1++;
;         if (PORTC & 0x04) __mc_assert(0);   /* BUG: key 2 unhandled */
;         __mc_thread_exit();
;     }
;
; Counterexample: the second read of PORTC returns 0x04, BRCLR does not
; branch, and the assertion fails.  The value is unknown to the symbolic
; engine, which follows both sides of each BRCLR; a concrete step that
; read the tested byte (the first listed value, 0x00) instead of a value
; that takes the side followed went to `no2' on both.
; sym_keypad_ok.s is the fixed program.

        .include "harness.inc"

        REGS = 0x1000
        PORTC = 0x03                    ; in the register block

        .sect   .bss
stack0: .skip   16
count1: .skip   1

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+16-1
        ldx     #REGS
        brclr   PORTC,x, #0x01, no1       ; key 1 not pressed
        inc     count1
no1:
        brclr   PORTC,x, #0x04, no2       ; key 2 not pressed
        clra                            ; BUG: key 2 has no handler
        jsr     __mc_assert
no2:
        jsr     __mc_thread_exit

        vector_table _start
