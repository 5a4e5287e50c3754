; stack_reach_ok.s -- main lends the bottom of its stack area to a worker,
; as much as a configuration byte says; in the small configuration main
; keeps a buffer in the part it did not lend, and hands the buffer's
; address to a helper that writes a status byte through it.  In the
; large configuration main hands over a word of its frame instead.
;
; Expected verdict: verified (--preempt every).  The fixed stack_reach.s:
; main hands buf over only once it is done with it.
;
;     unsigned char area[48];                   /* main's stack; the worker
;                                                  gets its bottom */
;     volatile unsigned char *dst;              /* where the helper writes */
;     volatile unsigned char spin = 20, done;
;
;     void helper(void) {                       /* thread 2, own stack */
;         while (--spin)                        /* a while, with the bus */
;             ;
;         while (dst == 0)
;             ;
;         *dst = 1;
;         done = 1;
;     }
;
;     void worker(void) {                       /* thread 1 */
;         while (!done)
;             ;
;         __mc_assert(done);
;     }
;
;     void main(void) {                         /* on area, at its top */
;         unsigned char large = nondet(1);      /* the configuration */
;         new_thread(worker, large ? area + 23 : area + 7, 0);
;         new_thread(helper, zstack + 15, 0);
;         if (!large) {
;             unsigned char buf[30];            /* reaches area + 18 */
;             buf[0] = 0x5A;
;             __mc_assert(buf[0] == 0x5A);
;             dst = buf;                        /* FIX: main is done */
;         } else {
;             unsigned char req[4];
;             dst = req;                        /* area + 44 */
;             while (!done)
;                 ;
;             __mc_assert(req[0]);
;         }
;     }
;
; The helper's store into buf now comes after main's check; in the large
; configuration it still teaches main's region that req is shared, and
; the search goes on.

        .include "harness.inc"

        AREA_SIZE   = 48
        ZSTACK_SIZE = 16
        SPINS       = 20

        .sect   .bss
dst:    .skip   2
spin:   .skip   1
done:   .skip   1
area:   .skip   AREA_SIZE
zstack: .skip   ZSTACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #area+AREA_SIZE-1
        ldaa    #SPINS
        staa    spin
        ldd     #1
        jsr     __mc_nondet             ; B = large
        pshb
        ldd     #area+7                 ; the worker's top, small ...
        tsx
        tst     0,x
        beq     m_small
        ldd     #area+23                ; ... or large
m_small:
        xgdx
        ldy     #0
        ldd     #worker
        jsr     __mc_thread_create
        ldx     #zstack+ZSTACK_SIZE-1
        ldy     #0
        ldd     #helper
        jsr     __mc_thread_create
        pulb
        tstb
        bne     m_large
        tsx                             ; unsigned char buf[30]
        xgdx
        subd    #30
        xgdx
        txs
        tsx                             ; X = buf
        ldaa    #0x5A
        staa    0,x                     ; buf[0] = 0x5A
        ldab    0,x
        clra
        cmpb    #0x5A
        bne     m_assert                ; A = 0: buf[0] was overwritten
        inca
m_assert:
        jsr     __mc_assert
        tsx
        stx     dst                     ; dst = buf, once done with it
        jsr     __mc_thread_exit
m_large:
        des                             ; unsigned char req[4]
        des
        des
        des
        tsx
        stx     dst                     ; dst = req
m_wait:
        ldaa    done
        beq     m_wait
        ldaa    0,x                     ; req[0], which the helper set
        jsr     __mc_assert
        jsr     __mc_thread_exit

; void worker(void) -- see the header.
worker:
        ldaa    done
        beq     worker
        jsr     __mc_assert
        jsr     __mc_thread_exit

; void helper(void) -- see the header.
helper:
        dec     spin
        bne     helper
he_wait:
        ldx     dst
        beq     he_wait
        ldaa    #1
        staa    0,x                     ; *dst = 1
        staa    done
        jsr     __mc_thread_exit

        vector_table _start
