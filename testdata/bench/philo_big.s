; philo_big.s -- four dining philosophers that cannot go wrong: a large
; state space for throughput measurements (states/s, bytes per state).
;
; Expected verdict: verified (run with --preempt every; exhaustive).
;
; Forks are __mc_lock lock bytes.  Every philosopher takes the
; lower-numbered of its two forks first (philosopher 3 takes fork 0 before
; fork 3), so the forks are locked in one global order: no cycle of waiting
; threads, no deadlock.  A philosopher eats only while holding both of its
; forks, and neighbours share a fork, so two neighbours never eat at the
; same time: the __mc_error in eat() is unreachable.  Each philosopher
; makes ROUNDS meals and ends; the program ends when all four have.
;
; Size: with ROUNDS = 1 each philosopher runs about a hundred
; instructions; four threads interleaved at every instruction give a
; reachable state space in the tens of millions.  Estimate: about 41
; million states and 160 million transitions, counted by an exhaustive
; search whose state holds the registers and status of every thread, the
; atomic-section owner and all 512 bytes of RAM (a checker that stores
; less, e.g. drops dead stack bytes, finds fewer).  ROUNDS = 2 would be
; far beyond that.  Not a default benchmark: manifest.json lists it with
; kind "throughput".

        .include "harness.inc"

        NPHIL = 4
        ROUNDS = 1
        STACK_SIZE = 32

        .sect   .bss
fork:   .skip   NPHIL                   ; lock bytes: 0 = free, else holder + 1
eating: .skip   NPHIL                   ; eating[i]: philosopher i is eating
meals:  .skip   NPHIL                   ; meals[i]: meals eaten so far
stacks: .skip   NPHIL*STACK_SIZE

        .sect   .text

; void main(void) {
;     for (i = 1; i < NPHIL; i++)           /* unrolled */
;         new_thread(philosopher, &stacks[i+1][-1], i);
;     philosopher(0);
;     __mc_thread_exit();
; }
        .globl  _start
_start:
        lds     #stacks+STACK_SIZE-1
        ldy     #1
        ldx     #stacks+2*STACK_SIZE-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #2
        ldx     #stacks+3*STACK_SIZE-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldy     #3
        ldx     #stacks+4*STACK_SIZE-1
        ldd     #philosopher
        jsr     __mc_thread_create
        ldd     #0
        jsr     philosopher
        jsr     __mc_thread_exit

; void philosopher(unsigned char id) {      /* thread entry, D = id */
;     unsigned char n;
;     for (n = 0; n < ROUNDS; n++) {
;         pickup(id);
;         eat(id);
;         putdown(id);
;     }
; }                                         /* returning ends the thread */
philosopher:
        pshb                            ; id
        clra
        psha                            ; n = 0     frame: 0,x = n, 1,x = id
ph_loop:
        tsx
        ldab    0,x
        cmpb    #ROUNDS
        bhs     ph_done
        ldab    1,x
        jsr     pickup
        tsx
        ldab    1,x
        jsr     eat
        tsx
        ldab    1,x
        jsr     putdown
        tsx
        inc     0,x                     ; n++
        bra     ph_loop
ph_done:
        pulx
        rts

; unsigned char rightof(unsigned char id) { return (id + 1) % NPHIL; }
rightof:
        incb
        andb    #NPHIL-1
        rts

; unsigned char leftof(unsigned char id) { return (id - 1) % NPHIL; }
leftof:
        decb
        andb    #NPHIL-1
        rts

; unsigned char *lowfork(unsigned char id) {        /* taken first */
;     return id == NPHIL - 1 ? &fork[0] : &fork[id];
; }
lowfork:
        cmpb    #NPHIL-1
        bne     lf_own
        clrb
lf_own:
        ldx     #fork
        abx
        xgdx                            ; D = &fork[...]
        rts

; unsigned char *highfork(unsigned char id) {       /* taken second */
;     return id == NPHIL - 1 ? &fork[id] : &fork[id + 1];
; }
highfork:
        cmpb    #NPHIL-1
        beq     hf_own
        incb
hf_own:
        ldx     #fork
        abx
        xgdx
        rts

; void pickup(unsigned char id) {
;     __mc_lock(lowfork(id));
;     __mc_lock(highfork(id));
; }
pickup:
        pshb                            ; frame: 0,x = id
        jsr     lowfork
        xgdx
        jsr     __mc_lock
        tsx
        ldab    0,x
        jsr     highfork
        xgdx
        jsr     __mc_lock
        ins
        rts

; void putdown(unsigned char id) {
;     __mc_unlock(highfork(id));
;     __mc_unlock(lowfork(id));
; }
putdown:
        pshb                            ; frame: 0,x = id
        jsr     highfork
        xgdx
        jsr     __mc_unlock
        tsx
        ldab    0,x
        jsr     lowfork
        xgdx
        jsr     __mc_unlock
        ins
        rts

; void eat(unsigned char id) {
;     eating[id] = 1;
;     if (eating[leftof(id)] || eating[rightof(id)])
;         __mc_error();                 /* a neighbour eats with our fork */
;     meals[id]++;
;     eating[id] = 0;
; }
eat:
        pshb                            ; frame: 0,x = id
        ldx     #eating
        abx
        ldaa    #1
        staa    0,x                     ; eating[id] = 1
        tsx
        ldab    0,x
        jsr     leftof
        ldx     #eating
        abx
        tst     0,x
        bne     ea_bad
        tsx
        ldab    0,x
        jsr     rightof
        ldx     #eating
        abx
        tst     0,x
        beq     ea_ok
ea_bad:
        jsr     __mc_error
ea_ok:
        tsx
        ldab    0,x
        ldx     #meals
        abx
        inc     0,x                     ; meals[id]++
        tsx
        ldab    0,x
        ldx     #eating
        abx
        clr     0,x                     ; eating[id] = 0
        ins
        rts

        vector_table _start
