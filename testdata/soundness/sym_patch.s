; sym_patch.s -- a step routine is built in RAM from a direction drawn
; at run time: the page-2 prefix 0x18, then INY (0x08) or DEY (0x09)
; patched in from the direction, then RTS.  The caller only expects the
; forward step.
;
; Expected verdict: violation `error' (--preempt every --ignore
; illegal-opcode; the illegal-opcode trap ends the thread).
;
;     void main(void) {
;         unsigned char dir = __mc_nondet(1);
;         code[0] = 0x18; code[1] = 0x08 + dir; code[2] = 0x39;
;         y = 0; ((void (*)(void))code)();
;         if (y != 1) __mc_error();        /* BUG: DEY not expected */
;         __mc_thread_exit();
;     }
;
; Counterexample: dir = 1, the routine is DEY, y = 0xFFFF.  The opcode
; byte after the prefix is a value the symbolic engine holds as a term;
; decoding the placeholder 0 there gave the undefined 0x18 0x00, whose
; trap ends the thread: no error.  sym_patch_ok.s is the fixed program.

        .include "harness.inc"

        .sect   .bss
stack0: .skip   16
code:   .skip   3

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+16-1
        ldd     #1
        jsr     __mc_nondet             ; B = dir, 0 or 1
        ldaa    #0x18
        staa    code                    ; the page-2 prefix
        addb    #0x08
        stab    code+1                  ; INY or DEY
        ldaa    #0x39
        staa    code+2                  ; RTS
        ldy     #0
        jsr     code
        cpy     #1
        beq     fine
        jsr     __mc_error              ; BUG: the backward step
fine:
        jsr     __mc_thread_exit

; the illegal-opcode trap: the thread gives up quietly
trap:
        jsr     __mc_thread_exit

        vector_table _start, illop=trap
