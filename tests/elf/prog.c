/*
 * prog.c - compiled code between _stext and _etext labels, for the ELF
 * tests: what a compiler makes of functions, local and global, weak,
 * data and bss, in an object, a shared object and (-m32) 32 bits.
 * Build with -fno-toplevel-reorder so the labels stay in place.
 */
__asm__(".text\n.skip 16\n.globl _stext\n_stext:\n");

int counter;
static int local_counter;
const char greeting[] = "hello";
int table[4] = { 1, 2, 3, 4 };

static int
helper(int x)
{
	local_counter += x;
	return x * 3 + local_counter;
}

int
work(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += helper(i) ^ table[i & 3];
	return s + greeting[n & 3];
}

__attribute__((weak)) int
hook(int x)
{
	return x + counter;
}

int
run(int n)
{
	return work(n) + hook(n);
}

__asm__(".text\n.globl _etext\n_etext:\n.skip 16\n");
