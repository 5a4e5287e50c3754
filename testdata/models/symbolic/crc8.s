; crc8.s -- the CRC-8 (polynomial 0x07) of four nondeterministic bytes,
; appended to them: the CRC of the five bytes is always 0, so the
; assertion can never fail.
;
; Expected verdict: verified with --engine hmc or auto.  The explicit
; engine enumerates 2^32 messages and ends incomplete; the model is not in
; manifest.json.
;
;     unsigned char msg[5];
;     unsigned char crc8(unsigned char *p, unsigned char n) {
;         unsigned char c = 0;
;         while (n--) {
;             c ^= *p++;
;             for (k = 8; k; k--)
;                 c = (c & 0x80) ? (c << 1) ^ 0x07 : c << 1;
;         }
;         return c;
;     }
;     void main(void) {
;         for (i = 0; i < 4; i++)
;             msg[i] = __mc_nondet(255);
;         msg[4] = crc8(msg, 4);
;         __mc_assert(crc8(msg, 5) == 0);
;         __mc_thread_exit();
;     }
;
; Reasoning: the CRC is the remainder of the message, times x^8, divided
; by x^8 + x^2 + x + 1; appending it makes the message a multiple of the
; polynomial, whose remainder is 0 whatever the four bytes are.  The
; bit loop branches on the bit shifted out, so each message takes its own
; path: 2^40 paths through the two CRCs.

        .include "harness.inc"

        .sect   .bss
msg:    .skip   5
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldx     #msg
read:
        ldd     #255
        pshx
        jsr     __mc_nondet             ; B = a byte of the message
        pulx
        stab    0,x
        inx
        cpx     #msg+4
        bne     read
        ldx     #msg
        ldab    #4
        jsr     crc8
        staa    msg+4                   ; append the CRC
        ldx     #msg
        ldab    #5
        jsr     crc8                    ; A = the CRC of all five bytes
        tsta
        bne     bad
        ldaa    #1                      ; A = (crc == 0)
        bra     check
bad:
        clra
check:
        jsr     __mc_assert
        jsr     __mc_thread_exit

; unsigned char crc8(X = p, B = n) -> A -- see the header.  Uses Y.
crc8:
        clra
byte:
        eora    0,x
        inx
        ldy     #8
bit:
        asla                            ; C = the bit shifted out
        bcc     nox
        eora    #0x07
nox:
        dey
        bne     bit
        decb
        bne     byte
        rts

        vector_table _start
