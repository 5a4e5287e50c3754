; mutex_bad.s -- two threads mark their critical sections, which nothing
; protects.
;
; Expected verdict: violation `mutex' (--preempt every).
;
;     unsigned char shared;
;
;     void update(void) {
;         __mc_cs_enter();                  /* BUG: no lock around it */
;         shared++;
;         __mc_cs_exit();
;     }
;     void worker(void) { update(); }       /* thread 1 */
;     void main(void) {
;         new_thread(worker, stack1, 0);
;         update();
;         __mc_thread_exit();
;     }
;
; Counterexample: thread 0 calls update and passes __mc_cs_enter, then
; thread 1 does the same before thread 0 reaches __mc_cs_exit: both are
; inside.  Shortest: 12 transitions (thread 0: lds, ldy, ldx, ldd, jsr,
; thread creation, jsr update, jsr __mc_cs_enter, the mark; thread 1: jsr
; update, jsr __mc_cs_enter, the mark).

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
shared: .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        jsr     update
        jsr     __mc_thread_exit

; void worker(void) -- see the header.
worker:
        jsr     update
        rts

; void update(void) -- see the header.
update:
        jsr     __mc_cs_enter
        inc     shared
        jsr     __mc_cs_exit
        rts

        vector_table _start
