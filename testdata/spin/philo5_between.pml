/*
 * philo5_between.pml -- the SPIN twin of testdata/bench/philo5_between.s:
 * the five philosophers with the forks at 0x00E0, between the stacks
 * (32 bytes each: thread 0's at 0x0080, philosophers 1 and 2 below the
 * forks, 3 to 5 above them); each philosopher's descriptor in RAM at
 * 0x0040, written by thread 0 at start-up and never again; thread 0
 * creates the five and ends; eating and thinking are short delay loops
 * (LDAB #2, then DECB / BNE until B is 0).
 *
 * The shape is that of philo5_ordered.pml (see its head).  The
 * descriptors are RAM, so they are a global (desc, words).  A loop's
 * conditional branch is one step, taken or not: the guard `z' or `else'
 * of an if.
 *
 *     spin -a philo5_between.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m1000000
 *
 * reports no errors.  With every reduction off on both sides both store
 * the same number of states (make compare-spin, TWIN_CHECK=all).
 */

#define DESC       64                      /* 0x0040 desc: the descriptors, in RAM */
#define STACK0     128                     /* 0x0080 thread 0's stack; all 32 bytes */
#define STACK_SIZE 32
#define FORK       224                     /* 0x00E0 fork[0..4] */

#define M(addr)   stk[((addr) - STACK0) % STACK_SIZE]
#define RAMW(a)   desc[((a) - DESC) / 2]

/* condition codes after a 16-bit load or store (N, Z, V) */
#define NZV16(r)  n = ((r) < 0); z = ((r) == 0); v = 0
/* LDD #k (0 < k < 32768), STD desc+off */
#define LDD(k)    d_step { a = (k) / 256; b = (k) % 256; n = 0; z = 0; v = 0 }
#define STD(off)  d_step { RAMW(DESC + off) = a * 256 + b; n = (a >= 128); z = (a == 0 && b == 0); v = 0 }
/* LDAB #k (0 < k < 128), DECB */
#define LDAB(k)   d_step { b = k; n = 0; z = 0; v = 0 }
#define DECB      d_step { v = (b == 128); b = (b + 255) % 256; n = (b >= 128); z = (b == 0) }
/* DECB; BNE back to it: the delay loop, B = 0 after it */
#define DELAY     do :: DECB; if :: z -> break :: else fi od
/* (a d_step may not be the target of a jump such as the loop's break:
   the instruction after a loop is the one option of an if) */
/* JSR: push the return address 0xD0lo, the address after the JSR */
#define JSR(lo)   d_step { M(sp) = lo; M(sp - 1) = 208; sp = sp - 2 }
/* the harness stubs, X = the lock byte; each ends as RTS does */
#define MC_LOCK   d_step { fork[x - FORK] == 0 -> fork[x - FORK] = _pid + 1; sp = sp + 2 }
#define MC_UNLOCK d_step { assert(fork[x - FORK] == _pid + 1); fork[x - FORK] = 0; sp = sp + 2 }

short desc[10];                            /* desc[i]: fork + lo(i), fork + hi(i) */
byte fork[5];

/* philosophers 1-5, created by main; D = the descriptor's address */
proctype philosopher(byte a, b; short sp; bit n, z, v, c) {
        short x, y;
        byte stk[STACK_SIZE];

        d_step { y = a * 256 + b; a = 0; b = 0 }                /* d081 xgdy (Y was 0) */
        do                                                      /* loop: */
        :: d_step { x = RAMW(y); NZV16(x) }                     /* d083 ldx 0,y */
        JSR(137);                                               /* d086 jsr __mc_lock */
        MC_LOCK;
        d_step { x = RAMW(y + 2); NZV16(x) }                    /* d089 ldx 2,y */
        JSR(143);                                               /* d08c jsr __mc_lock */
        MC_LOCK;
        LDAB(2);                                                /* d08f ldab #2: eat */
        DELAY;                                                  /* d091 decb; d092 bne eat */
        if :: d_step { x = RAMW(y + 2); NZV16(x) } fi           /* d094 ldx 2,y */
        JSR(154);                                               /* d097 jsr __mc_unlock */
        MC_UNLOCK;
        d_step { x = RAMW(y); NZV16(x) }                        /* d09a ldx 0,y */
        JSR(160);                                               /* d09d jsr __mc_unlock */
        MC_UNLOCK;
        LDAB(2);                                                /* d0a0 ldab #2: think */
        DELAY;                                                  /* d0a2 decb; d0a3 bne think */
        if :: skip fi                                           /* d0a5 bra loop */
        od
}

/* the harness's __mc_thread_create, after the JSR: D = the new thread's id */
#define MC_THREAD_CREATE \
        atomic { b = run philosopher(y / 256, y % 256, x, n, z, v, c); a = 0; sp = sp + 2 }
/* one creation: Y = the argument, X = the stack top, D = philosopher (0xD081) */
#define CREATE(arg, top, lo) \
        d_step { y = arg; NZV16(y) };                           /* ldy #arg */ \
        d_step { x = top; NZV16(x) };                           /* ldx #top */ \
        d_step { a = 208; b = 129; n = 1; z = 0; v = 0 };       /* ldd #philosopher */ \
        JSR(lo);                                                /* jsr __mc_thread_create */ \
        MC_THREAD_CREATE

/* thread 0, from the reset vector */
active proctype main() {
        byte a, b;
        short x, y, sp;
        bit n, z, v, c;
        byte stk[STACK_SIZE];

        d_step { sp = STACK0 + STACK_SIZE - 1; NZV16(sp) }      /* d00d lds #STACKS+31 */
        LDD(FORK);                                              /* d010 ldd #fork+0 */
        STD(0);                                                 /* d013 std desc+0 */
        STD(16);                                                /* d016 std desc+16 */
        LDD(FORK + 1);                                          /* d019 */
        STD(2);
        STD(4);
        LDD(FORK + 2);                                          /* d022 */
        STD(6);
        STD(8);
        LDD(FORK + 3);                                          /* d02b */
        STD(10);
        STD(12);
        LDD(FORK + 4);                                          /* d034 */
        STD(14);
        STD(18);
        CREATE(DESC,      191, 74);                             /* d03d: stack 0x00A0-0x00BF */
        CREATE(DESC + 4,  223, 87);                             /* d04a: 0x00C0-0x00DF */
        CREATE(DESC + 8,  287, 100);                            /* d057: 0x0100-0x011F */
        CREATE(DESC + 12, 319, 113);                            /* d064: 0x0120-0x013F */
        CREATE(DESC + 16, 351, 126);                            /* d071: 0x0140-0x015F */
        JSR(129);                                               /* d07e jsr __mc_thread_exit */
        skip                                                    /* the thread ends */
}
