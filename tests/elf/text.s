# text.s - a kernel-style text for the ELF tests: _stext and _etext
# labels, symbols of most types, ties at one address, absolute symbols.
# Only data directives, so one file assembles for every target.
	.text
	.skip 16
	.globl _stext
	.type _stext,@function
_stext:
	.skip 8
	.globl f_global
	.type f_global,@function
f_global:
	.skip 24
	.type f_local,@function
f_local:
zz_alias:
	.globl aa_alias
aa_alias:
	.skip 40
	.weak f_weak
	.type f_weak,@function
f_weak:
	.skip 16
	.type obj_in_text,@object
obj_in_text:
	.skip 12
	.weak w_obj_in_text
	.type w_obj_in_text,@object
w_obj_in_text:
	.skip 100
	.type empty_a,@function
empty_a:
empty_b:
	.skip 36
	.globl _etext
_etext:
	.skip 8
	.type ifn,@gnu_indirect_function
	.globl ifn
ifn:
	.skip 8
	.type after,@function
after:
	.skip 8
	.set abs_local, 0x20
	.globl abs_global
	.set abs_global, 0x30
	.data
	.globl dvar
	.type dvar,@object
dvar:	.long 1
ldvar:	.long 2
	.section .rodata
ro:	.long 3
	.bss
bvar:	.skip 4
	.globl gbvar
gbvar:	.skip 4
	.section .comment.x,"",@progbits
in_comment: .byte 0
	.section .debug_x,"",@progbits
in_debug: .byte 0
