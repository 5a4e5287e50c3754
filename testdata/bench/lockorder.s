; lockorder.s -- two tellers move money between two accounts, each taking
; the locks of the source account and then of the destination account.
;
; Expected verdict: violation `deadlock' (run with --preempt every).
;
;     struct account { unsigned char lock; unsigned char balance; };
;     struct account acct_a = { 0, 100 }, acct_b = { 0, 50 };
;
;     void transfer(struct account *from, struct account *to) {
;         __mc_lock(&from->lock);
;         __mc_lock(&to->lock);             /* BUG: lock order depends on */
;         from->balance--;                  /* the direction of transfer  */
;         to->balance++;
;         __mc_unlock(&to->lock);
;         __mc_unlock(&from->lock);
;     }
;
; Thread 0 calls transfer(&acct_a, &acct_b), thread 1 transfer(&acct_b,
; &acct_a).  If thread 0 takes a's lock and thread 1 takes b's lock before
; either takes its second lock, each blocks in __mc_lock on the lock the
; other holds and nothing can run: a deadlock (38 transitions from reset
; on the shortest schedule).  In every other interleaving both threads
; finish and end normally.

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .data
acct_a: .byte   0, 100                  ; lock, balance
acct_b: .byte   0, 50

        .sect   .bss
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text

; void main(void) {
;     new_thread(teller, stack1, 1);
;     teller(0);
;     __mc_thread_exit();
; }
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #1
        ldx     #stack1+STACK_SIZE-1
        ldd     #teller
        jsr     __mc_thread_create
        ldd     #0
        jsr     teller
        jsr     __mc_thread_exit

; void teller(unsigned char which) {        /* also thread 1's entry */
;     if (which == 0)
;         transfer(&acct_a, &acct_b);
;     else
;         transfer(&acct_b, &acct_a);
; }
teller:
        tstb
        bne     te_back
        ldx     #acct_b
        pshx                            ; second argument: to
        ldd     #acct_a                 ; first argument: from
        jsr     transfer
        pulx                            ; pop the argument
        rts
te_back:
        ldx     #acct_a
        pshx
        ldd     #acct_b
        jsr     transfer
        pulx
        rts

; void transfer(struct account *from, struct account *to) -- see the header.
transfer:
        pshb
        psha                            ; 0,x = from, 2,x = ret, 4,x = to
        tsx
        ldx     0,x
        jsr     __mc_lock               ; __mc_lock(&from->lock)
        tsx
        ldx     4,x
        jsr     __mc_lock               ; __mc_lock(&to->lock)
        tsx
        ldx     0,x
        dec     1,x                     ; from->balance--
        tsx
        ldx     4,x
        inc     1,x                     ; to->balance++
        tsx
        ldx     4,x
        jsr     __mc_unlock             ; __mc_unlock(&to->lock)
        tsx
        ldx     0,x
        jsr     __mc_unlock             ; __mc_unlock(&from->lock)
        pulx                            ; drop the frame
        rts

        vector_table _start
