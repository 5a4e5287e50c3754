; hyman.s -- Hyman's mutual-exclusion algorithm for two threads (1966).
;
; Benchmark row "Hyman" of Table 1.  Expected verdict: violation `mutex'
; (run with --preempt every).
;
;     unsigned char flag[2];        /* flag[i]: thread i wants to enter */
;     unsigned char turn;           /* 0 at power-up                     */
;
;     void hyman_enter(unsigned char i) {
;         unsigned char j = i ^ 1;
;         flag[i] = 1;
;         while (turn != i) {
;             while (flag[j])
;                 ;
;             turn = i;
;         }
;     }
;
; Why it is wrong: thread 1 sets flag[1], sees turn == 0 != 1 and flag[0]
; == 0, so it leaves the inner loop about to write turn = 1.  Now thread 0
; sets flag[0], sees turn == 0 and enters the critical section.  Thread 1
; resumes, writes turn = 1, finds turn == 1 and enters as well: both
; threads are between __mc_cs_enter and __mc_cs_exit, which the `mutex'
; property reports.  Each thread loops forever, so without the bug the
; state space would be a finite cycle; the shortest counterexample has 74
; transitions (instructions and harness calls, thread creation included).

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
flag:   .skip   2                       ; flag[0], flag[1]
turn:   .skip   1
owner:  .skip   1                       ; id + 1 of the thread inside
stack0: .skip   STACK_SIZE              ; thread 0 (main / worker(0))
stack1: .skip   STACK_SIZE              ; thread 1 (worker(1))

        .sect   .text

; void main(void) {
;     new_thread(worker, stack1, 1);
;     worker(0);                            /* never returns */
; }
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #1                      ; argument: thread number 1
        ldx     #stack1+STACK_SIZE-1    ; its stack
        ldd     #worker                 ; its entry
        jsr     __mc_thread_create
        ldd     #0
        jsr     worker
        jsr     __mc_thread_exit

; void worker(unsigned char i) {
;     for (;;) {
;         hyman_enter(i);
;         critical(i);
;         hyman_exit(i);
;     }
; }
worker:
        pshb                            ; frame: 0,x = i
w_loop:
        tsx
        ldab    0,x
        clra
        jsr     hyman_enter
        tsx
        ldab    0,x
        clra
        jsr     critical
        tsx
        ldab    0,x
        clra
        jsr     hyman_exit
        bra     w_loop

; void hyman_enter(unsigned char i) -- see the header.
hyman_enter:
        pshb                            ; i
        tba
        eora    #1
        psha                            ; j = i ^ 1   frame: 0,x = j, 1,x = i
        ldx     #flag
        abx
        ldaa    #1
        staa    0,x                     ; flag[i] = 1
he_test:
        tsx
        ldab    1,x
        cmpb    turn
        beq     he_done                 ; while (turn != i) {
he_wait:
        tsx
        ldab    0,x
        ldx     #flag
        abx
        tst     0,x
        bne     he_wait                 ;     while (flag[j]) ;
        tsx
        ldab    1,x
        stab    turn                    ;     turn = i;
        bra     he_test                 ; }
he_done:
        pulx                            ; drop the frame
        rts

; void critical(unsigned char i) {
;     __mc_cs_enter();
;     owner = i + 1;
;     __mc_cs_exit();
; }
critical:
        pshb                            ; frame: 0,x = i
        jsr     __mc_cs_enter
        tsx
        ldab    0,x
        incb
        stab    owner
        jsr     __mc_cs_exit
        ins
        rts

; void hyman_exit(unsigned char i) {
;     flag[i] = 0;
; }
hyman_exit:
        ldx     #flag
        abx
        clr     0,x
        rts

        vector_table _start
