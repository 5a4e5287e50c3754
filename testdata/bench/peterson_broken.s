; peterson_broken.s -- Peterson's algorithm with the two writes of the
; entry protocol in the wrong order (turn before flag).
;
; Expected verdict: violation `mutex' (run with --preempt every).
;
;     void peterson_lock(unsigned char i) {
;         unsigned char j = i ^ 1;
;         turn = j;                         /* BUG: must come after...     */
;         flag[i] = 1;                      /* ...this write               */
;         while (flag[j] && turn == j)
;             ;
;     }
;
; Counterexample: thread 0 writes turn = 1 and is preempted.  Thread 1
; writes turn = 0, flag[1] = 1, tests flag[0] == 0 and enters.  Thread 0
; writes flag[0] = 1, tests flag[1] == 1 but turn == 0 (its own number) and
; enters too: both threads are inside their critical sections (82
; transitions from reset on the shortest schedule).  Each thread
; would otherwise make ROUNDS = 2 passes and end, as in peterson.s.

        .include "harness.inc"

        STACK_SIZE = 32
        ROUNDS = 2

        .sect   .bss
flag:   .skip   2
turn:   .skip   1
owner:  .skip   1                       ; id + 1 of the thread in the section
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text

; void main(void) {
;     new_thread(worker, stack1, 1);
;     worker(0);
;     __mc_thread_exit();
; }
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #1
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        ldd     #0
        jsr     worker
        jsr     __mc_thread_exit

; void worker(unsigned char i) {            /* also thread 1's entry */
;     unsigned char n;
;     for (n = 0; n < ROUNDS; n++) {
;         peterson_lock(i);
;         critical(i);
;         peterson_unlock(i);
;     }
; }                                         /* returning ends thread 1 */
worker:
        pshb                            ; i
        clra
        psha                            ; n = 0     frame: 0,x = n, 1,x = i
w_loop:
        tsx
        ldab    0,x
        cmpb    #ROUNDS
        bhs     w_done
        ldab    1,x
        jsr     peterson_lock
        tsx
        ldab    1,x
        jsr     critical
        tsx
        ldab    1,x
        jsr     peterson_unlock
        tsx
        inc     0,x                     ; n++
        bra     w_loop
w_done:
        pulx                            ; drop the frame
        rts

; void peterson_lock(unsigned char i) -- see the header (broken order).
peterson_lock:
        pshb                            ; i
        tba
        eora    #1
        psha                            ; j         frame: 0,x = j, 1,x = i
        tsx
        ldaa    0,x
        staa    turn                    ; turn = j          (BUG: too early)
        ldab    1,x
        ldx     #flag
        abx
        ldaa    #1
        staa    0,x                     ; flag[i] = 1
pl_wait:
        tsx
        ldab    0,x                     ; B = j
        ldx     #flag
        abx
        tst     0,x
        beq     pl_done                 ; flag[j] == 0: go
        cmpb    turn
        beq     pl_wait                 ; turn == j: wait
pl_done:
        pulx                            ; drop the frame
        rts

; void peterson_unlock(unsigned char i) {
;     flag[i] = 0;
; }
peterson_unlock:
        ldx     #flag
        abx
        clr     0,x
        rts

; void critical(unsigned char i) {
;     __mc_cs_enter();
;     owner = i + 1;
;     __mc_assert(owner == i + 1);          /* nobody else came in */
;     owner = 0;
;     __mc_cs_exit();
; }
critical:
        incb
        pshb                            ; frame: 0,x = i + 1
        jsr     __mc_cs_enter
        tsx
        ldab    0,x
        stab    owner
        clra
        cmpb    owner
        bne     cr_check
        inca                            ; A = (owner == i + 1)
cr_check:
        jsr     __mc_assert
        clr     owner
        jsr     __mc_cs_exit
        ins
        rts

        vector_table _start
