; race_input.s -- two sensor tasks, one reading PORTC and one PORTE.  A
; task whose reading is above the alarm limit sets its own trip flag and
; counts the alarm in a shared counter with a load, an increment and a
; store.  Thread 0, after its own sensor, waits for the other task and
; asserts that the counter equals the number of trip flags set.
;
; Expected verdict: violation `assert' with --preempt every, --input
; 0x1003 and --input 0x100A (each reading any byte): both readings above
; LIMIT (0xC1 to 0xFF each: 3969 of the 65536 pairs) and one task's
; load-increment-store interleaved inside the other's.  For every other
; pair, under every interleaving, the counter is right.
; symbolic/expected_test.go enumerates the pairs and the interleavings
; of the shared accesses in plain Go.
;
;     #define PORTC (*(volatile unsigned char *)0x1003)  /* sensor 0 */
;     #define PORTE (*(volatile unsigned char *)0x100A)  /* sensor 1 */
;     #define LIMIT 0xC0
;     unsigned char alarms;                 /* alarms counted */
;     unsigned char trip[2];                /* the sensors that tripped */
;     volatile unsigned char done;          /* sensor 1's task is over */
;
;     void sensor(unsigned char k) {
;         unsigned char v = k ? PORTE : PORTC;
;         if (v > LIMIT) {
;             trip[k] = 1;
;             alarms++;                     /* BUG: load, increment, store */
;         }
;         if (k)
;             done = 1;
;     }
;     void main(void) {                     /* thread 0 */
;         new_thread(sensor, stack1, 1);    /* thread 1: sensor 1 */
;         sensor(0);
;         while (!done)
;             ;
;         __mc_assert(alarms == trip[0] + trip[1]);
;         __mc_thread_exit();
;     }
;
; Reasoning: with at most one reading above the limit only one task
; writes alarms, once.  With both above, the two read-modify-writes of
; alarms race: when one task loads alarms between the other's load and
; store, both store 1 and one alarm is lost (counter 1, flags 2).  The
; fix is __mc_atomic_begin/__mc_atomic_end (interrupts masked, on the
; chip) around the increment.

        .include "harness.inc"

REGS    = 0x1000                        ; the register block
PORTC   = 0x03                          ; sensor 0
PORTE   = 0x0A                          ; sensor 1
LIMIT   = 0xC0
STACK_SIZE = 32

alarms  = 0x0040                        ; unsigned char alarms
trip    = 0x0041                        ; unsigned char trip[2]
done    = 0x0043                        ; volatile unsigned char done
stack0  = 0x0100                        ; thread 0's stack
stack1  = 0x0120                        ; thread 1's stack

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #1                      ; its argument: sensor 1
        ldx     #stack1+STACK_SIZE-1
        ldd     #sensor
        jsr     __mc_thread_create
        clrb
        jsr     sensor                  ; sensor 0 here
wait:
        tst     done
        beq     wait
        ldaa    trip
        adda    trip+1                  ; the sensors that tripped
        cmpa    alarms
        bne     bad
        ldaa    #1                      ; A = (alarms == trip[0] + trip[1])
        bra     check
bad:
        clra
check:
        jsr     __mc_assert
        jsr     __mc_thread_exit

; void sensor(B = k) -- see the header.  Uses A, X.
sensor:
        ldx     #REGS
        tstb
        bne     se_1
        ldaa    PORTC,x
        bra     se_read
se_1:
        ldaa    PORTE,x
se_read:
        cmpa    #LIMIT
        bls     se_end                  ; not above the limit
        ldx     #trip
        abx
        ldaa    #1
        staa    0,x                     ; trip[k] = 1
        ldaa    alarms                  ; alarms++: load,
        inca                            ; increment,
        staa    alarms                  ; store
se_end:
        tstb
        beq     se_ret
        ldaa    #1
        staa    done                    ; sensor 1's task is over
se_ret:
        rts

        vector_table _start
