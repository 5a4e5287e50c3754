; secret6.s -- a door controller reads a six-key code from the keypad on
; PORTC and opens the door when it matches the code kept, scrambled, in
; ROM.  The assertion says the door never opens: it fails for exactly one
; sequence of the six bytes the keypad can give.
;
; Expected verdict: violation `assert' with --input 0x1003 (every read of
; PORTC any byte), the keys being 66 cb 54 8d 38 f1 (the code, each byte
; xor 0x5A); symbolic/expected_test.go recomputes them from the image's
; ROM.  The explicit engine branches 256 ways on each key (2^48
; sequences).
;
;     #define PORTC (*(volatile unsigned char *)0x1003)
;     const unsigned char code[6] = { 0x3c, 0x91, 0x0e, 0xd7, 0x62, 0xab };
;     unsigned char keys[6];
;
;     unsigned char code_ok(const unsigned char *k) {
;         for (i = 0; i < 6; i++)
;             if ((k[i] ^ 0x5A) != code[i])
;                 return 0;             /* a wrong key: rejected */
;         return 1;
;     }
;     void main(void) {
;         for (i = 0; i < 6; i++)
;             keys[i] = PORTC;          /* a key from the keypad */
;         __mc_assert(!code_ok(keys));  /* the door never opens */
;         __mc_thread_exit();
;     }
;
; Reasoning: code_ok compares the keys one by one and leaves at the first
; that differs; each comparison holds for one key value alone
; (code[i] ^ 0x5A), so one sequence of the 2^48 reaches the end, where
; A = 0 fails the assertion.

        .include "harness.inc"

REGS    = 0x1000                        ; the register block
PORTC   = 0x03                          ; the keypad
KEYLEN  = 6
SCRAMBLE = 0x5A
STACK_SIZE = 32

keys    = 0x0040                        ; unsigned char keys[KEYLEN]
stack0  = 0x0100                        ; the stack, STACK_SIZE bytes

        .sect   .rodata
code:   .byte   0x3c, 0x91, 0x0e, 0xd7, 0x62, 0xab

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldx     #keys
read:
        ldaa    REGS+PORTC              ; a key
        staa    0,x
        inx
        cpx     #keys+KEYLEN
        bne     read
        ldx     #keys
        jsr     code_ok                 ; B = 1: the door opens
        tba
        eora    #1                      ; A = !code_ok(keys)
        jsr     __mc_assert
        jsr     __mc_thread_exit

; unsigned char code_ok(X = k) -> B -- see the header.  Uses A, Y.
code_ok:
        ldy     #code
ck_loop:
        ldaa    0,x
        eora    #SCRAMBLE
        cmpa    0,y
        bne     ck_wrong
        inx
        iny
        cpx     #keys+KEYLEN
        bne     ck_loop
        ldab    #1                      ; every key right
        rts
ck_wrong:
        clrb
        rts

        vector_table _start
