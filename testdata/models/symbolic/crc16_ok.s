; crc16_ok.s -- a receiver's check of a two-byte message with its
; CRC-16/CCITT appended: the CRC of the four bytes is always 0, so the
; assertion can never fail.
;
; Expected verdict: verified (every one of the 65536 messages passes;
; symbolic/expected_test.go checks them all in plain Go).
;
;     unsigned char msg[4];                 /* two data bytes, the CRC */
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
;         msg[0] = __mc_nondet(255);
;         msg[1] = __mc_nondet(255);
;         crc = crc16(msg, 2);
;         msg[2] = crc >> 8; msg[3] = crc;  /* the sender appends it */
;         __mc_assert(crc16(msg, 4) == 0);  /* the receiver checks it */
;         __mc_thread_exit();
;     }
;
; Reasoning: without a final xor, the CRC register after the appended
; CRC (high byte first) is the remainder of a multiple of the generator
; x^16 + x^12 + x^5 + 1, which is 0 whatever the initial value and the
; two data bytes.  Each message takes its own path through the bit loop
; of both calls: 2^16 paths of about 500 instructions.

        .include "harness.inc"

NBYTES  = 2                             ; the data bytes
POLY    = 0x1021                        ; x^16 + x^12 + x^5 + 1
STACK_SIZE = 32

msg     = 0x0040                        ; unsigned char msg[NBYTES + 2]
count   = 0x0048                        ; crc16's byte counter
stack0  = 0x0100                        ; the stack, STACK_SIZE bytes

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldx     #msg
read:
        ldd     #255
        pshx
        jsr     __mc_nondet             ; B = a data byte
        pulx
        stab    0,x
        inx
        cpx     #msg+NBYTES
        bne     read
        ldx     #msg
        ldab    #NBYTES
        jsr     crc16
        std     msg+NBYTES              ; append the CRC, high byte first
        ldx     #msg
        ldab    #NBYTES+2
        jsr     crc16                   ; D = the CRC of all four bytes
        cpd     #0
        bne     bad
        ldaa    #1                      ; A = (crc == 0)
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
