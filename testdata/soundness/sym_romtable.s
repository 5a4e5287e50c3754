; sym_romtable.s -- a mode drawn from 0-3 indexes a table of flags in
; ROM, and BRSET on the table entry picks the handler.  Entry 2 has the
; "unsupported" bit 7 set by mistake.
;
; Expected verdict: violation `assert' (--preempt every).
;
;     const unsigned char flags[4] = { 0x01, 0x02, 0x81, 0x04 };  /* BUG */
;
;     void main(void) {
;         unsigned char mode = __mc_nondet(3);
;         if (flags[mode] & 0x80) __mc_assert(0);  /* unsupported mode */
;         __mc_thread_exit();
;     }
;
; Counterexample: mode = 2.  The symbolic engine reads the table through
; a symbolic index as an array (an if-then-else over the four bytes); a
; concrete step that took the branch by writing 0xFF over the tested byte
; met ROM, which does not take the write, and read flags[0] on both sides.
; sym_romtable_ok.s is the fixed program.

        .include "harness.inc"

        .sect   .bss
stack0: .skip   16

        .sect   .rodata
flags:  .byte   0x01, 0x02, 0x81, 0x04  ; BUG: bit 7 in entry 2

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+16-1
        ldd     #3
        jsr     __mc_nondet             ; B = mode, 0-3
        ldx     #flags
        abx
        brset   0,x, #0x80, bad         ; the unsupported bit
        jsr     __mc_thread_exit
bad:
        clra
        jsr     __mc_assert
        jsr     __mc_thread_exit

        vector_table _start
