; crc16_bad.s -- a session number made from the CRC-16/CCITT of the
; board's two-byte serial number, which the firmware takes to be never 0
; (0 means "no session").  For one serial number it is 0: FF FF, the
; value of an EEPROM that was never programmed.
;
; Expected verdict: violation `assert', the serial number being FF FF,
; the only one of the 65536 whose CRC is 0 (symbolic/expected_test.go
; computes them all in plain Go).
;
;     unsigned char serial[2];              /* from the EEPROM: any value */
;     unsigned int session;
;     unsigned int crc16(const unsigned char *p, unsigned char n) {
;         unsigned int c = 0xFFFF;          /* CRC-16/CCITT-FALSE */
;         while (n--) {
;             c ^= *p++ << 8;
;             for (k = 8; k; k--)
;                 c = (c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1;
;         }
;         return c;
;     }
;     void main(void) {
;         serial[0] = __mc_nondet(255);
;         serial[1] = __mc_nondet(255);
;         session = crc16(serial, 2);
;         __mc_assert(session != 0);        /* BUG: not for FF FF */
;         __mc_thread_exit();
;     }
;
; Reasoning: the CRC of two bytes is a one-to-one function of them (the
; sixteen bits of the message divided by the generator leave sixteen bits
; of remainder, and different messages different remainders), so exactly
; one serial number gives 0.  FF FF does: the first byte turns 0xFFFF
; into 0x00FF, whose eight shifts never set bit 15 before it is tested,
; giving 0xFF00, and the second byte clears it.

        .include "harness.inc"

NBYTES  = 2
POLY    = 0x1021                        ; x^16 + x^12 + x^5 + 1
STACK_SIZE = 32

serial  = 0x0040                        ; unsigned char serial[NBYTES]
session = 0x0042                        ; unsigned int session
count   = 0x0044                        ; crc16's byte counter
stack0  = 0x0100                        ; the stack, STACK_SIZE bytes

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldx     #serial
read:
        ldd     #255
        pshx
        jsr     __mc_nondet             ; B = a byte of the serial number
        pulx
        stab    0,x
        inx
        cpx     #serial+NBYTES
        bne     read
        ldx     #serial
        ldab    #NBYTES
        jsr     crc16
        std     session
        cpd     #0
        beq     bad
        ldaa    #1                      ; A = (session != 0)
        bra     check
bad:
        clra
check:
        jsr     __mc_assert
        jsr     __mc_thread_exit

; unsigned int crc16(X = p, B = n) -> D -- see the header.  Uses Y.
crc16:
        stab    count
        ldd     #0xFFFF
cr_byte:
        eora    0,x                     ; c ^= *p++ << 8
        inx
        ldy     #8
cr_bit:
        asld                            ; C = the bit shifted out
        bcc     cr_nox
        eora    #POLY>>8
        eorb    #POLY&0xFF
cr_nox:
        dey
        bne     cr_bit
        dec     count
        bne     cr_byte
        rts

        vector_table _start
