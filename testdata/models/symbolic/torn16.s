; torn16.s -- a host-command thread sets a 16-bit period, which it has
; checked against the limit, with two byte stores; the control loop in
; the other thread reads it with one 16-bit load and asserts the limit.
; Of the 65536 periods the host can send, one tears into a value above
; the limit: the limit itself.
;
; Expected verdict: violation `assert' with --engine hmc or auto and
; --preempt every, the period being 0x8000 and the control loop reading
; between the two stores.  The explicit engine branches 65536 ways on
; the period, and every branch keeps its value (in rxbuf) through a
; CRC-8 of the command and the interleavings of the two threads: it ends
; incomplete (--max-states 1000000); the model is not in manifest.json.
;
;     #define PERIOD_MAX 0x8000             /* half the 16-bit timer's range */
;     volatile unsigned int period = 1000;  /* 0x03E8: the control loop's */
;     volatile unsigned char done;          /* the host command is over */
;     unsigned char rxbuf[2];               /* the command: a period, high byte first */
;     unsigned char ack;                    /* the reply: the command's CRC-8 */
;
;     unsigned char crc8(const unsigned char *p, unsigned char n) {
;         unsigned char c = 0;              /* polynomial 0x07 */
;         while (n--) {
;             c ^= *p++;
;             for (k = 8; k; k--)
;                 c = (c & 0x80) ? (c << 1) ^ 0x07 : c << 1;
;         }
;         return c;
;     }
;
;     void host(void) {                     /* thread 1 */
;         unsigned int p = __mc_nondet(0xFFFF); /* the period the host sends */
;         rxbuf[0] = p >> 8; rxbuf[1] = p;
;         ack = crc8(rxbuf, 2);
;         if (p <= PERIOD_MAX)
;             memcpy(&period, rxbuf, 2);    /* BUG: two byte stores, high byte first */
;         done = 1;
;     }
;
;     void main(void) {                     /* thread 0 */
;         new_thread(host, stack1, 0);
;         do
;             __mc_assert(period <= PERIOD_MAX);    /* one 16-bit load */
;         while (!done);
;         __mc_thread_exit();
;     }
;
; Reasoning: every period stored whole is 1000 or at most 0x8000, so the
; assertion holds for each.  Between the two stores period holds the new
; high byte and the old low byte, 0xE8: below 0x8000 for a high byte
; below 0x80, and 0x80E8 for 0x80, whose only period within the limit is
; 0x8000 itself.  Counterexample: the host sends 0x8000; after the CRC
; it stores the high byte; the control loop reads 0x80E8 and the
; assertion fails.  The fix is one 16-bit store (std period), which no
; thread switch can split.

        .include "harness.inc"

        STACK_SIZE = 32
        PERIOD_MAX = 0x8000

        .sect   .data
        .type   period, @object
        .size   period, 2
period: .word   1000

        .sect   .bss
        .type   done, @object
        .size   done, 1
done:   .skip   1
        .type   rxbuf, @object
        .size   rxbuf, 2
rxbuf:  .skip   2
        .type   ack, @object
        .size   ack, 1
ack:    .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #host
        jsr     __mc_thread_create
control:
        ldd     period                  ; one 16-bit load
        cpd     #PERIOD_MAX
        bhi     co_bad
        ldaa    #1                      ; A = (period <= PERIOD_MAX)
        bra     co_assert
co_bad:
        clra
co_assert:
        jsr     __mc_assert
        tst     done
        beq     control
        jsr     __mc_thread_exit

; void host(void) -- see the header.
host:
        ldd     #0xFFFF
        jsr     __mc_nondet             ; D = the period the host sends
        std     rxbuf
        ldx     #rxbuf
        ldab    #2
        jsr     crc8
        staa    ack                     ; ack = crc8(rxbuf, 2)
        ldd     rxbuf
        cpd     #PERIOD_MAX
        bhi     ho_done                 ; out of range: refused
        ldaa    rxbuf                   ; memcpy(&period, rxbuf, 2)
        staa    period                  ; the high byte ...
        ldab    rxbuf+1
        stab    period+1                ; ... and the low byte: torn in between
ho_done:
        ldaa    #1
        staa    done
        rts

; unsigned char crc8(X = p, B = n) -> A -- see the header.  Uses Y.
crc8:
        clra
cr_byte:
        eora    0,x
        inx
        ldy     #8
cr_bit:
        asla                            ; C = the bit shifted out
        bcc     cr_nox
        eora    #0x07
cr_nox:
        dey
        bne     cr_bit
        decb
        bne     cr_byte
        rts

        vector_table _start
