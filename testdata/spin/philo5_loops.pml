/*
 * philo5_loops.pml -- the SPIN twin of testdata/bench/philo5_loops.s:
 * philo5_rom.pml with 32-byte stacks and eating and thinking as short
 * delay loops (LDAB #2, then DECB / BNE until B is 0) instead of NOPs.
 * The forks at 0x0040, below the stacks (from 0x0080); the descriptors in
 * ROM, read through Y; thread 0 creates the five and ends.
 *
 * The shape is that of philo5_ordered.pml (see its head); ROM is constant,
 * so it is no variable: ROMW(addr) is the word the image holds at addr.
 * A loop's conditional branch is one step, taken or not: the guard `z' or
 * `else' of an if.
 *
 *     spin -a philo5_loops.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m1000000
 *
 * reports no errors.  With every reduction off on both sides both store
 * the same number of states (make compare-spin, TWIN_CHECK=all).
 */

#define FORK       64                      /* 0x0040 fork[0..4] */
#define STACK0     128                     /* 0x0080 stack i: STACK0 + 32 i, 32 bytes */
#define STACK_SIZE 32
#define DESC       53370                   /* 0xd07a desc: the descriptors, in ROM */

#define M(addr)   stk[((addr) - STACK0) % STACK_SIZE]
/* the word at ROM address a: desc[i] = fork + lo(i), fork + hi(i) */
#define ROMW(a)   (FORK + ((a) == DESC      -> 0 : ((a) == DESC + 2  -> 1 : \
                          ((a) == DESC + 4  -> 1 : ((a) == DESC + 6  -> 2 : \
                          ((a) == DESC + 8  -> 2 : ((a) == DESC + 10 -> 3 : \
                          ((a) == DESC + 12 -> 3 : ((a) == DESC + 14 -> 4 : \
                          ((a) == DESC + 16 -> 0 : 4))))))))))

/* condition codes after a 16-bit load (N, Z, V); U16 for an unsigned register */
#define NZV16(r)  n = ((r) < 0); z = ((r) == 0); v = 0
#define NZVU16(r) n = ((r) >= 32768); z = ((r) == 0); v = 0
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

byte fork[5];

/* philosophers 1-5, created by main; D = the descriptor's address */
proctype philosopher(byte a, b; short sp; bit n, z, v, c) {
        short x;
        unsigned y : 16;
        byte stk[STACK_SIZE];

        d_step { y = a * 256 + b; a = 0; b = 0 }                /* d054 xgdy (Y was 0) */
        do                                                      /* loop: */
        :: d_step { x = ROMW(y); NZV16(x) }                     /* d056 ldx 0,y */
        JSR(92);                                                /* d059 jsr __mc_lock */
        MC_LOCK;
        d_step { x = ROMW(y + 2); NZV16(x) }                    /* d05c ldx 2,y */
        JSR(98);                                                /* d05f jsr __mc_lock */
        MC_LOCK;
        LDAB(2);                                                /* d062 ldab #2: eat */
        DELAY;                                                  /* d064 decb; d065 bne eat */
        if :: d_step { x = ROMW(y + 2); NZV16(x) } fi           /* d067 ldx 2,y */
        JSR(109);                                               /* d06a jsr __mc_unlock */
        MC_UNLOCK;
        d_step { x = ROMW(y); NZV16(x) }                        /* d06d ldx 0,y */
        JSR(115);                                               /* d070 jsr __mc_unlock */
        MC_UNLOCK;
        LDAB(2);                                                /* d073 ldab #2: think */
        DELAY;                                                  /* d075 decb; d076 bne think */
        if :: skip fi                                           /* d078 bra loop */
        od
}

/* the harness's __mc_thread_create, after the JSR: D = the new thread's id */
#define MC_THREAD_CREATE \
        atomic { b = run philosopher(y / 256, y % 256, x, n, z, v, c); a = 0; sp = sp + 2 }
/* one creation: Y = the argument, X = the stack top, D = philosopher (0xD054) */
#define CREATE(arg, top, lo) \
        d_step { y = arg; NZVU16(y) };                          /* ldy #arg */ \
        d_step { x = top; NZV16(x) };                           /* ldx #top */ \
        d_step { a = 208; b = 84; n = 1; z = 0; v = 0 };        /* ldd #philosopher */ \
        JSR(lo);                                                /* jsr __mc_thread_create */ \
        MC_THREAD_CREATE

/* thread 0, from the reset vector */
active proctype main() {
        byte a, b;
        short x, sp;
        unsigned y : 16;
        bit n, z, v, c;
        byte stk[STACK_SIZE];

        d_step { sp = STACK0 + STACK_SIZE - 1; NZV16(sp) }      /* d00d lds #STACKS+31 */
        CREATE(DESC,      STACK0 + 2 * STACK_SIZE - 1, 29);     /* d010 */
        CREATE(DESC + 4,  STACK0 + 3 * STACK_SIZE - 1, 42);     /* d01d */
        CREATE(DESC + 8,  STACK0 + 4 * STACK_SIZE - 1, 55);     /* d02a */
        CREATE(DESC + 12, STACK0 + 5 * STACK_SIZE - 1, 68);     /* d037 */
        CREATE(DESC + 16, STACK0 + 6 * STACK_SIZE - 1, 81);     /* d044 */
        JSR(84);                                                /* d051 jsr __mc_thread_exit */
        skip                                                    /* the thread ends */
}
