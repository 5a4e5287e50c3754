; split_word_ok.s -- split_word.s fixed: main's frame has the two bytes
; its 16-bit scratch word needs, so `status' is never touched.
;
; Expected verdict: verified (--preempt every).
;
;     unsigned char stack0[32];                 /* main's stack, then ... */
;     volatile unsigned char status;            /* ... 0 or 1, never more */
;
;     void worker(void) {                       /* thread 1 */
;         __mc_assert(status <= 1);
;     }
;
;     void main(void) {                         /* on stack0, frame at its top */
;         unsigned int scratch;                 /* two bytes */
;         new_thread(worker, stack1, 0);
;         unsigned int saved = scratch;
;         scratch = 0x1234;
;         unsigned int t = scratch + 1;
;         scratch = saved;
;         sum = t;
;     }

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
stack0: .skip   STACK_SIZE              ; main's stack: its top byte is stack0+31
status: .skip   1                       ; right above it
sum:    .skip   2
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        des                             ; main's frame: scratch, two bytes
        des                             ;   at stack0+30 and stack0+31
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        tsx
        ldy     0,x                     ; saved = scratch
        ldd     #0x1234
        std     0,x                     ; scratch = 0x1234
        ldd     0,x
        addd    #1                      ; t = D
        sty     0,x                     ; scratch = saved
        std     sum
        ins
        ins
        jsr     __mc_thread_exit

; void worker(void) -- see the header.
worker:
        clra
        ldab    status
        cmpb    #1
        bhi     wo_assert               ; A = 0: status is not 0 or 1
        inca
wo_assert:
        jsr     __mc_assert
        rts

        vector_table _start
