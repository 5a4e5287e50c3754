; mutex_ok.s -- two threads mark their critical sections, which a lock
; protects.
;
; Expected verdict: verified (--preempt every; a few hundred states).
;
;     unsigned char lock, shared;
;
;     void update(void) {
;         __mc_lock(&lock);
;         __mc_cs_enter();
;         shared++;
;         __mc_cs_exit();
;         __mc_unlock(&lock);
;     }
;     void worker(void) { update(); }       /* thread 1 */
;     void main(void) {
;         new_thread(worker, stack1, 0);
;         update();
;         __mc_thread_exit();
;     }
;
; Reasoning: the critical-section marks lie strictly inside the locked
; region, and __mc_lock admits one thread at a time, so the two threads are
; never inside at once.

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
lock:   .skip   1
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
        ldx     #lock
        jsr     __mc_lock
        jsr     __mc_cs_enter
        inc     shared
        jsr     __mc_cs_exit
        ldx     #lock
        jsr     __mc_unlock
        rts

        vector_table _start
