#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin_a(unsigned long n){ for(unsigned long i=0;i<n;i++) sink+=i*3; }
__attribute__((noinline)) void spin_b(unsigned long n){ for(unsigned long i=0;i<n;i++) sink^=i*7+1; }
__attribute__((noinline)) static void spin_c(unsigned long n){ for(unsigned long i=0;i<n;i++) sink+=i>>1; }
int main(int argc,char**argv){ unsigned long n = argc>1? strtoul(argv[1],0,0):20000000UL;
 spin_a(n); spin_b(2*n); spin_c(n/2); return 0; }
