; prodcons.s -- producer and consumer sharing a bounded buffer of 2 items,
; with the textbook sleep / wake-up bug (the missed wake-up).
;
; Expected verdict: violation `deadlock' (run with --preempt every).
;
; The buffer and its counter are protected by a lock (`mutex').  A thread
; that finds nothing to do sleeps: it sets its wait byte to 0xFF and blocks
; in __mc_lock on it until the other thread clears the byte (wakeup).  The
; test of `count' and the sleep are not one atomic step:
;
;     void consumer(void) {
;         for (;;) {
;             while (getcount() == 0)               /* locked read */
;                 sleep_on(&consumer_waits);        /* <-- window  */
;             __mc_lock(&mutex);
;             item = buffer[out]; out = (out + 1) % SIZE; c = --count;
;             __mc_unlock(&mutex);
;             if (c == SIZE - 1)
;                 wakeup(&producer_waits);
;             consume(item);
;         }
;     }
;
; and the producer is the mirror image (sleeps when c == SIZE, wakes the
; consumer when its insertion makes count 1).
;
; Counterexample: the consumer reads count == 0 and is preempted.  The
; producer inserts an item (count = 1) and wakes the consumer -- who is not
; asleep yet, so the wake-up is lost.  The consumer goes to sleep.  The
; producer fills the buffer (count = 2), reads count == SIZE and sleeps as
; well.  Both threads are blocked in __mc_lock on their wait bytes and
; nobody is left to clear them: a deadlock (150 transitions from reset on
; the shortest schedule).
;
; Both threads re-test the count after waking (`while', not `if'), so a
; wake-up that arrives late only costs a loop turn: the count stays in
; 0..SIZE and the missed wake-up is the only bug.  Apart from it the
; program runs forever; items are numbered modulo 2, so the state space is
; finite (about 70 thousand states under --preempt every).

        .include "harness.inc"

        STACK_SIZE = 32
        SIZE = 2

        .sect   .bss
mutex:          .skip 1                 ; lock byte for buffer, count, in, out
count:          .skip 1
in:             .skip 1
out:            .skip 1
buffer:         .skip SIZE
producer_waits: .skip 1                 ; 0xFF while the producer sleeps
consumer_waits: .skip 1                 ; 0xFF while the consumer sleeps
consumed:       .skip 1                 ; last item consumed
stack0:         .skip STACK_SIZE
stack1:         .skip STACK_SIZE

        .sect   .text

; void main(void) {
;     new_thread(consumer, stack1, 0);
;     producer();
; }
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #consumer
        jsr     __mc_thread_create
        jsr     producer
        jsr     __mc_thread_exit        ; not reached

; void sleep_on(unsigned char *w) {
;     *w = 0xFF;                            /* I am asleep             */
;     __mc_lock(w);                         /* blocks until *w == 0    */
;     *w = 0;                               /* awake: reset the byte   */
; }
sleep_on:
        xgdx                            ; X = w
        ldaa    #0xFF
        staa    0,x
        pshx                            ; frame: 0,x = w
        jsr     __mc_lock
        pulx
        clr     0,x
        rts

; void wakeup(unsigned char *w) {
;     *w = 0;
; }
wakeup:
        xgdx
        clr     0,x
        rts

; unsigned char getcount(void) {
;     unsigned char c;
;     __mc_lock(&mutex); c = count; __mc_unlock(&mutex);
;     return c;
; }
getcount:
        ldx     #mutex
        jsr     __mc_lock
        ldab    count
        pshb                            ; frame: 0,x = c
        ldx     #mutex
        jsr     __mc_unlock
        pulb
        rts

; unsigned char put(unsigned char item) {   /* returns the new count */
;     unsigned char c;
;     __mc_lock(&mutex);
;     buffer[in] = item;
;     in = (in + 1) % SIZE;
;     c = ++count;
;     __mc_unlock(&mutex);
;     return c;
; }
put:
        pshb                            ; frame: 0,x = item, later c
        ldx     #mutex
        jsr     __mc_lock
        ldab    in
        ldx     #buffer
        abx
        pula
        staa    0,x                     ; buffer[in] = item
        incb
        cmpb    #SIZE
        bne     pu_wrap
        clrb
pu_wrap:
        stab    in
        inc     count
        ldab    count
        pshb                            ; c
        ldx     #mutex
        jsr     __mc_unlock
        pulb
        rts

; unsigned char get(unsigned char *item) -- returns the new count, and
; the item through the pointer (passed in D).
; {
;     unsigned char c;
;     __mc_lock(&mutex);
;     *item = buffer[out];
;     out = (out + 1) % SIZE;
;     c = --count;
;     __mc_unlock(&mutex);
;     return c;
; }
get:
        pshb
        psha                            ; frame: 0,x = item pointer
        ldx     #mutex
        jsr     __mc_lock
        ldab    out
        ldx     #buffer
        abx
        ldaa    0,x                     ; A = buffer[out]
        tsx
        ldx     0,x
        staa    0,x                     ; *item = A
        incb
        cmpb    #SIZE
        bne     ge_wrap
        clrb
ge_wrap:
        stab    out
        dec     count
        ldab    count
        tsx
        stab    0,x                     ; c (reuses the frame)
        ldx     #mutex
        jsr     __mc_unlock
        pulb                            ; B = c
        ins
        rts

; void producer(void) {
;     unsigned char item = 0;
;     for (;;) {
;         item = (item + 1) & 1;            /* produce */
;         while (getcount() == SIZE)
;             sleep_on(&producer_waits);    /* <-- window */
;         if (put(item) == 1)
;             wakeup(&consumer_waits);
;     }
; }
producer:
        clrb
        pshb                            ; frame: 0,x = item
pr_loop:
        tsx
        ldab    0,x
        incb
        andb    #1
        stab    0,x                     ; item = (item + 1) & 1
pr_full:
        jsr     getcount
        cmpb    #SIZE
        bne     pr_room
        ldd     #producer_waits
        jsr     sleep_on
        bra     pr_full
pr_room:
        tsx
        ldab    0,x
        jsr     put
        cmpb    #1
        bne     pr_loop
        ldd     #consumer_waits
        jsr     wakeup
        bra     pr_loop

; void consumer(void) {                     /* thread entry */
;     unsigned char item;
;     for (;;) {
;         while (getcount() == 0)
;             sleep_on(&consumer_waits);    /* <-- window */
;         if (get(&item) == SIZE - 1)
;             wakeup(&producer_waits);
;         consumed = item;                  /* consume */
;     }
; }
consumer:
        des                             ; frame: 0,x = item
co_loop:
        jsr     getcount
        tstb
        bne     co_some
        ldd     #consumer_waits
        jsr     sleep_on
        bra     co_loop
co_some:
        tsx
        xgdx                            ; D = &item
        jsr     get
        cmpb    #SIZE-1
        bne     co_use
        ldd     #producer_waits
        jsr     wakeup
co_use:
        tsx
        ldaa    0,x
        staa    consumed
        bra     co_loop

        vector_table _start
