/*
 * debugfile.h - a stripped program's separate debug file, as gdb finds it.
 *
 * Distributions ship programs without .symtab and put the symbols in a
 * debug file: /usr/lib/debug/.build-id/xx/rest.debug (xx/rest: the hex
 * of the program's GNU build-id), or the file named by its
 * .gnu_debuglink (its CRC-32 checked) beside the program, in .debug/
 * there, or under /usr/lib/debug/ followed by the program's directory.
 * /usr/lib/debug is looked for under the test root (kernel.h).
 */
#ifndef RP_DEBUGFILE_H
#define RP_DEBUGFILE_H

/*
 * The symbol source to read for PROG (-m of a gmon.out report): PROG
 * itself when it has a .symtab, is no ELF file or is standard input;
 * else its debug file, said on stderr; else PROG (its .dynsym), with a
 * hint on stderr naming the places looked at.
 */
const char *debugfile_resolve(const char *prog);

#endif
