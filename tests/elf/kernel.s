# kernel.s - a tiny "kernel image": _stext and linux_banner make the ELF
# reader apply scripts/mksysmap's filter.  Assemble with -L (keep .L).
	.text
	.skip 16
	.globl _stext
_stext:
	.skip 8
	.globl start_kernel
	.type start_kernel,@function
start_kernel:
	.skip 8
.Llocal_label:
	.skip 8
"$x":
	.skip 8
L0:
	.skip 8
L00:
	.skip 8
	.type do_one,@function
do_one:
	.skip 8
	.globl _etext
_etext:
	.skip 8
	.set abs_local, 0x18
	.globl __crc_printk
	.set __crc_printk, 0x12345678
	.globl abs_kept
	.set abs_kept, 0x40
	.section .rodata
	.globl linux_banner
	.type linux_banner,@object
linux_banner:
	.asciz "Linux version 0.0"
__kstrtab_printk:
	.asciz "printk"
__kstrtabns_printk:
	.asciz ""
"x$":	.byte 0
__crc:	.byte 0
	.section .debug_y,"",@progbits
in_debug: .byte 0
	.weak weak_undefined
	.long weak_undefined
