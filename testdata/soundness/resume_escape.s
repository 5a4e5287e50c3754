; resume_escape.s -- main calls a routine that hands a helper the address
; of its local, and reads the local twice; the helper waits for the
; address, then spins a while before it writes through it.  The program
; of stack_escape.s, with a helper that takes its time, so that a search
; cut by --max-states has seen main's reads before the cut and sees the
; helper's store after it.
;
; Expected verdict: violation `assert' (--preempt every), also when the
; search is cut by --max-states (--search bfs --workers 1) and resumed.
;
;     volatile unsigned char *mailbox;          /* 0: nothing published */
;     volatile unsigned char spin = 24;
;
;     void helper(void) {                       /* thread 1 */
;         while (mailbox == 0)
;             ;
;         while (--spin)                        /* takes its time */
;             ;
;         *mailbox = 1;                         /* into f's frame */
;     }
;
;     unsigned char f(void) {
;         volatile unsigned char v = 0;
;         mailbox = &v;                         /* BUG: the local escapes */
;         unsigned char a = v;
;         unsigned char b = v;
;         return a == b;
;     }
;
;     void main(void) {
;         new_thread(helper, stack1 + 31, 0);
;         __mc_assert(f());
;     }
;
; Counterexample: as in stack_escape.s, the helper's store falls between
; f's two reads.  The reduction follows the reads alone as private to
; main's stack; the helper's store is an intrusion into that stack after
; they relied on it, and the search starts again with the local taken as
; shared.  A search saved after the reads and resumed from the saved
; frontier, on a machine that had not learned that the reads relied on
; the byte (the resumed part relies only on the bytes above it, where
; main calls __mc_assert), took the store for one into a byte nothing
; relied on, went on with the region shrunk and reported `verified'.
; resume_escape_ok.s is the fixed program.

        .include "harness.inc"

        STACK_SIZE = 32
        SPINS      = 24

        .sect   .bss
mailbox: .skip  2
spin:   .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldaa    #SPINS
        staa    spin
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #helper
        jsr     __mc_thread_create
        jsr     f
        jsr     __mc_assert
        jsr     __mc_thread_exit

; unsigned char f(void) -- see the header; the result in A.
f:
        clra
        psha                            ; v = 0
        tsx
        stx     mailbox                 ; BUG: mailbox = &v
        ldaa    0,x                     ; a = v
        ldab    0,x                     ; b = v
        ins
        cba
        bne     f_differ
        ldaa    #1
        rts
f_differ:
        clra                            ; v changed between the reads
        rts

; void helper(void) -- see the header.
helper:
        ldx     mailbox
        beq     helper
he_spin:
        dec     spin
        bne     he_spin
        ldaa    #1
        staa    0,x                     ; *mailbox = 1
        jsr     __mc_thread_exit

        vector_table _start
