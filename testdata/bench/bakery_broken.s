; bakery_broken.s -- the bakery algorithm without the `choosing' flags.
;
; Expected verdict: violation `mutex' (run with --preempt every).
;
;     void bakery_lock(unsigned char i) {   /* BUG: no choosing[] handshake */
;         unsigned char j = i ^ 1;
;         number[i] = maxticket() + 1;
;         while (number[j] != 0 &&
;                (number[j] < number[i] ||
;                 (number[j] == number[i] && j < i)))
;             ;
;     }
;
; Counterexample: thread 0 runs maxticket() (it sees both tickets 0) and is
; preempted before it stores its ticket.  Thread 1 takes ticket 1, sees
; number[0] == 0 and enters.  Thread 0 stores ticket 1, sees number[1] ==
; 1 == number[0] with 1 > 0, so it believes it has priority and enters as
; well (161 transitions from reset on the shortest schedule).  With
; choosing[], thread 1 would have waited for thread 0 to finish taking its
; ticket (bakery.s).

        .include "harness.inc"

        STACK_SIZE = 32
        ROUNDS = 2

        .sect   .bss
number:   .skip 2
owner:    .skip 1                       ; id + 1 of the thread in the section
stack0:   .skip STACK_SIZE
stack1:   .skip STACK_SIZE

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
;         bakery_lock(i);
;         critical(i);
;         bakery_unlock(i);
;     }
; }
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
        jsr     bakery_lock
        tsx
        ldab    1,x
        jsr     critical
        tsx
        ldab    1,x
        jsr     bakery_unlock
        tsx
        inc     0,x                     ; n++
        bra     w_loop
w_done:
        pulx
        rts

; unsigned char maxticket(void) {
;     unsigned char k, m = 0;
;     for (k = 0; k < 2; k++)
;         if (number[k] > m)
;             m = number[k];
;     return m;
; }
maxticket:
        clra
        clrb
        pshb                            ; m = 0
        psha                            ; k = 0     frame: 0,x = k, 1,x = m
mt_loop:
        tsx
        ldab    0,x
        cmpb    #2
        bhs     mt_done
        ldx     #number
        abx
        ldaa    0,x                     ; A = number[k]
        tsx
        cmpa    1,x
        bls     mt_next
        staa    1,x                     ; m = number[k]
mt_next:
        inc     0,x                     ; k++
        bra     mt_loop
mt_done:
        ldab    1,x                     ; return m
        pulx                            ; drop the frame (B is kept)
        rts

; void bakery_lock(unsigned char i) -- see the header (no choosing[]).
bakery_lock:
        pshb                            ; i
        tba
        eora    #1
        psha                            ; j         frame: 0,x = j, 1,x = i
        jsr     maxticket
        tba
        inca                            ; A = maxticket() + 1
        tsx
        ldab    1,x
        ldx     #number
        abx
        staa    0,x                     ; number[i] = A
bl_wait:
        tsx
        ldab    0,x
        ldx     #number
        abx
        ldaa    0,x                     ; A = number[j]
        beq     bl_done                 ; j is not waiting: go
        tsx
        ldab    1,x
        ldx     #number
        abx
        cmpa    0,x
        blo     bl_wait                 ; number[j] < number[i]: wait
        bne     bl_done                 ; number[j] > number[i]: go
        tsx                             ; same ticket: smaller id first
        ldaa    0,x
        cmpa    1,x
        blo     bl_wait                 ; j < i: wait
bl_done:
        pulx                            ; drop the frame
        rts

; void bakery_unlock(unsigned char i) {
;     number[i] = 0;
; }
bakery_unlock:
        ldx     #number
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
