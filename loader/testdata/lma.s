; lma.s - initialised data whose load address (in ROM) differs from its
; run address (in RAM): the start-up code copies it. Linked with lma.ld.

        .sect   .text
        .globl  _start
        .type   _start,@function
_start:
        lds     #0x01ff
        ldx     #__data_load
        ldy     #__data_start
copy:   cpy     #__data_end
        beq     main
        ldaa    0,x
        staa    0,y
        inx
        iny
        bra     copy
main:   ldd     table
        bra     main
        .size   _start, .-_start

        .sect   .data
        .globl  table
        .type   table,@object
        .size   table,4
table:  .word   0xBEEF, 0xCAFE

        .sect   .vectors,"a"
        .word   _start
