; illegal.s -- a call through a table of handlers lands on a data byte.
;
; Expected verdict: violation `illegal-opcode' (any --preempt; one thread).
;
;     void (*const handler[2])(void) = { idle, (void (*)(void))version };
;     const unsigned char version[] = { 0x41, ... };  /* data, not code */
;
;     void main(void) {
;         handler[1]();                     /* BUG: jumps into data */
;         __mc_thread_exit();
;     }
;
; Reasoning: the second table entry points at `version', whose first byte
; is 0x41 -- an opcode the 68HC11 does not define.  The illegal-opcode
; vector (0xFFF8) is 0, i.e. not installed, so the checker reports
; `illegal-opcode' when thread 0 executes it.  Straight-line path: lds,
; ldx, ldx, jsr 0,x and the undefined opcode (5 transitions).

        .include "harness.inc"

        .sect   .rodata
handler:
        .word   idle, version
version:
        .byte   0x41, 0x01, 0x00        ; "A", 1.0 -- data

        .sect   .bss
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldx     #handler
        ldx     2,x                     ; X = handler[1]
        jsr     0,x                     ; handler[1]()
        jsr     __mc_thread_exit

; void idle(void) { }
idle:
        rts

        vector_table _start
