/*
 * gen.c - deterministic generator of a large, kernel-like readprofile input.
 *
 *   bench-gen OUTDIR [SCALE [dense]]
 *
 * Writes OUTDIR/profile and OUTDIR/kallsyms.  At SCALE 1 (the default):
 *
 *   - kallsyms: about 26 MB, laid out like /proc/kallsyms: a block of
 *     absolute per-cpu symbols (type A, small addresses), then startup_64,
 *     _stext and _text at 0xffffffff81000000, 500,000 text symbols (T, t
 *     and a few W) spread over about 70 MiB of text, some of them aliases
 *     at the same address, then _etext, and after it the read-only, data
 *     and bss symbols (R r D d B b) up to _end.  Names look like kernel
 *     function names, 8 to 40 characters for most, a few up to 90.
 *   - profile: what /proc/profile of that kernel would read with profile=2
 *     (sampling step 4): word 0 = 4, then (_etext - _stext) / 4 counters,
 *     little-endian, about 73 MB.  Most counters are zero; a few thousand
 *     functions are hot (ticks falling off with their rank), a sprinkle of
 *     single ticks lies everywhere, and the last counter holds the ticks
 *     taken outside the core text (modules).
 *
 * With "dense", the profile is that of a kernel that ran a busy machine
 * for hours: every counter is drawn in turn, and one in 50 (on average)
 * is non-zero, with a value of 1 to 499; the map is made the same way.
 *
 * Every text symbol lies inside the profile, so the input is well defined
 * for every readprofile.  SCALE (a decimal number, e.g. 0.01) multiplies
 * the symbol count, the text size and the number of hot spots.
 *
 * The output depends only on SCALE: the generator uses its own random
 * number generator and integer arithmetic, and writes the profile
 * little-endian byte by byte whatever the host's byte order.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEP 4u
#define STEXT UINT64_C(0xffffffff81000000)

static uint64_t rng_state = UINT64_C(0x5265616450726f66);

/* splitmix64 */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
static uint64_t below(uint64_t n)
{
	return rnd() % n;
}

static void die(const char *what, const char *path)
{
	fprintf(stderr, "bench-gen: %s%s%s: %s\n", what, path ? " " : "",
		path ? path : "", strerror(errno));
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		die("out of memory", NULL);
	return p;
}

/* ---- names ---------------------------------------------------------- */

static const char *const prefixes[] = {
	"tcp", "udp", "ip", "ipv6", "inet", "inet6", "sock", "skb", "netif",
	"dev", "napi", "neigh", "fib", "fib6", "arp", "icmp", "igmp", "rtnl",
	"nf", "nft", "nf_conntrack", "nf_nat", "xdp", "bpf", "btf", "perf",
	"trace", "ftrace", "ring_buffer", "ext4", "jbd2", "xfs", "btrfs",
	"nfs", "nfsd", "fuse", "vfs", "fs", "inode", "dentry", "d", "iput",
	"filemap", "folio", "page", "mm", "vma", "mmap", "shmem", "hugetlb",
	"mem_cgroup", "memcg", "kmem", "slab", "kmalloc", "vmalloc", "lru",
	"vmscan", "compaction", "migrate", "khugepaged", "swap", "zswap",
	"sched", "rcu", "srcu", "irq", "softirq", "tasklet", "workqueue",
	"timer", "hrtimer", "tick", "clocksource", "clockevents", "ktime",
	"kvm", "vmx", "svm", "x86", "cpu", "cpuhp", "cpufreq", "cpuidle",
	"acpi", "pci", "pcie", "msi", "usb", "xhci", "hid", "input", "tty",
	"n_tty", "uart", "serial8250", "drm", "i915", "amdgpu", "nvme", "blk",
	"blk_mq", "bio", "scsi", "sd", "ata", "ahci", "dm", "md", "raid",
	"virtio", "vring", "vhost", "crypto", "aes", "sha256", "chacha20",
	"audit", "security", "selinux", "apparmor", "fsnotify", "inotify",
	"cgroup", "css", "kernfs", "sysfs", "proc", "seq", "pipe", "futex",
	"signal", "ptrace", "mutex", "rwsem", "down", "up", "spin",
	"raw_spin", "queued_spin", "lockdep", "kobject", "device", "driver",
	"bus", "dma", "iommu", "intel_iommu", "swiotlb", "power", "pm",
	"thermal", "rtc", "snd", "snd_pcm", "snd_hda", "v4l2", "cfg80211",
	"ieee80211", "hci", "l2cap", "sctp", "mptcp", "netlink", "genl",
	"xfrm", "unix", "packet", "af_alg", "key", "keyring", "ima", "evm",
	"lsm", "capable", "cred", "task", "pid", "ns", "user_ns", "uts",
	"ipc", "msg", "sem", "shm", "mq", "epoll", "eventfd", "signalfd",
	"timerfd", "io_uring", "aio", "splice", "iov_iter", "copy", "memcpy",
	"memset", "str", "strn", "kstr", "vsnprintf", "printk", "console",
	"klist", "rb", "radix_tree", "xa", "idr", "ida", "bitmap", "find",
	"cpumask", "nodemask", "percpu", "this_cpu", "stop_machine",
	"smp", "native", "paravirt", "xen", "hv", "efi", "e820", "memblock",
};

static const char *const words[] = {
	"alloc", "free", "init", "exit", "get", "put", "lookup", "insert",
	"remove", "update", "read", "write", "open", "release", "flush",
	"sync", "map", "unmap", "lock", "unlock", "trylock", "queue",
	"dequeue", "enqueue", "wake", "wait", "handle", "process", "submit",
	"complete", "start", "stop", "reset", "probe", "attach", "detach",
	"register", "unregister", "check", "validate", "parse", "build",
	"send", "recv", "xmit", "rcv", "poll", "ioctl", "mmap", "fault",
	"page", "pages", "range", "entry", "entries", "list", "table", "hash",
	"tree", "node", "buf", "buffer", "msg", "skb", "work", "task",
	"thread", "state", "stats", "event", "events", "ops", "fn", "cb",
	"worker", "timer", "irq", "mask", "unmask", "set", "clear", "find",
	"next", "prev", "first", "last", "one", "all", "batch", "bulk",
	"fast", "slow", "path", "common", "generic", "internal", "core",
	"helper", "iter", "walk", "scan", "shrink", "grow", "resize", "move",
	"split", "merge", "commit", "abort", "prepare", "finish", "pending",
	"active", "inactive", "dirty", "clean", "writeback", "readahead",
	"cache", "block", "sector", "request", "segment", "desc", "ring",
	"slot", "vector", "domain", "group", "policy", "rule", "chain",
	"hook", "notify", "notifier", "ref", "refcount", "count", "len",
	"size", "offset", "addr", "pfn", "pte", "pmd", "pud", "pgd", "vma",
	"rq", "cfs", "rt", "dl", "se", "entity", "load", "avg", "util",
	"balance", "affine", "tick", "idle", "enter", "leave", "switch",
	"context", "user", "kernel", "mode", "flags", "info", "data", "mem",
	"cpu", "cpus", "online", "offline", "show", "store", "attr", "attrs",
	"create", "destroy", "new", "del", "add", "sub", "inc", "dec", "test",
	"and", "or", "to", "from", "for", "each", "in", "on", "by", "with",
	"v2", "v3", "v4", "64", "32", "locked", "nolock", "rcu", "bh",
	"irqsave", "atomic", "noprof", "may", "can", "need", "should", "is",
};

static const char *const tails[] = {
	".cold", ".isra.0", ".constprop.0", ".part.0", ".constprop.1",
	".isra.1", ".part.1", ".localalias", ".cold.2", ".constprop.0.isra.0",
};

static const char *const long_prefixes[] = {
	"__pfx_", "__cfi_", "__bpf_trace_", "trace_event_raw_event_",
	"perf_trace_", "__traceiter_", "trace_raw_output_", "__probestub_",
	"__SCT__tp_func_", "__x64_sys_", "__ia32_sys_", "__se_sys_",
	"__do_sys_", "__ia32_compat_sys_",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Target name length: mostly 8..40 around 20, a few up to 90. */
static size_t name_length(void)
{
	uint64_t r = below(1000);
	if (r < 30)
		return 41 + (size_t)below(50);	/* 3%: 41..90 */
	/* sum of three uniforms: a bell around 21 within 8..40 */
	return 8 + (size_t)(below(12) + below(12) + below(10));
}

/* Writes a kernel-like function name of about the target length into
 * buf (which holds at least 128 bytes).  Returns its length. */
static size_t make_name(char *buf)
{
	size_t target = name_length(), n = 0;
	const char *s;

	if (target > 40 || below(100) < 6) {
		s = long_prefixes[below(NELEM(long_prefixes))];
		n = strlen(s);
		memcpy(buf, s, n);
	} else if (below(100) < 12) {
		memcpy(buf, "__", 2);
		n = 2;
	}
	s = prefixes[below(NELEM(prefixes))];
	memcpy(buf + n, s, strlen(s));
	n += strlen(s);
	while (n < target) {
		s = words[below(NELEM(words))];
		size_t w = strlen(s);
		if (n + 1 + w > target + 4 && n >= 8)
			break;
		if (n + 1 + w > 100)
			break;
		buf[n++] = '_';
		memcpy(buf + n, s, w);
		n += w;
	}
	if (below(100) < 4) {
		s = tails[below(NELEM(tails))];
		size_t w = strlen(s);
		if (n + w <= 100) {
			memcpy(buf + n, s, w);
			n += w;
		}
	}
	buf[n] = '\0';
	return n;
}

/* ---- main ----------------------------------------------------------- */

static FILE *open_out(const char *dir, const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s.tmp", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		die("cannot create", path);
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

static void close_out(FILE *f, const char *dir, const char *name, const char *tmp)
{
	char path[4096];
	if (ferror(f) | fclose(f))
		die("write error on", tmp);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (rename(tmp, path) != 0)
		die("cannot rename", tmp);
}

static void map_line(FILE *f, uint64_t addr, char type, const char *name)
{
	fprintf(f, "%016llx %c %s\n", (unsigned long long)addr, type, name);
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4 ||
	    (argc == 4 && strcmp(argv[3], "dense") != 0)) {
		fprintf(stderr, "usage: bench-gen OUTDIR [SCALE [dense]]\n");
		return 2;
	}
	int dense = argc == 4;
	const char *dir = argv[1];
	double scale = 1.0;
	if (argc >= 3) {
		char *end;
		scale = strtod(argv[2], &end);
		if (*end || !(scale > 0) || scale > 16) {
			fprintf(stderr, "bench-gen: bad scale '%s' (0 < SCALE <= 16)\n", argv[2]);
			return 2;
		}
	}

	/* Sizes.  Text: 70 MiB scaled, 16-aligned, plus an odd tail as a real
	 * _etext has.  Symbols: 500,000 between _stext and _etext. */
	uint64_t text = (uint64_t)(70.0 * 1048576.0 * scale) & ~UINT64_C(15);
	if (text < 4096)
		text = 4096;
	text += 0x32;
	uint64_t nsym = (uint64_t)(500000.0 * scale);
	if (nsym < 16)
		nsym = 16;
	uint64_t nhot = (uint64_t)(10000.0 * scale);
	if (nhot < 4)
		nhot = 4;
	uint64_t ndata = (uint64_t)(60000.0 * scale);
	if (ndata < 8)
		ndata = 8;
	uint64_t ncnt = text / STEP;	/* counters after the step word */

	/* Text symbol offsets from _stext.  Symbol 0 is _stext itself.  Gaps
	 * are drawn from a heavy-tailed distribution (many small functions,
	 * a few huge ones), 1% are aliases (gap 0), then scaled to fill the
	 * text but the last 64 bytes. */
	uint64_t *off = xcalloc(nsym, sizeof *off);
	uint64_t *gap = xcalloc(nsym, sizeof *gap);
	uint64_t total = 0;
	for (uint64_t i = 1; i < nsym; i++) {
		uint64_t g;
		if (below(100) == 0)
			g = 0;
		else {
			unsigned e = 0;
			while (e < 7 && (rnd() & 1))
				e++;
			g = (16 + below(64)) << e;
		}
		gap[i] = g;
		total += g;
	}
	uint64_t room = text - 64, cum = 0;
	for (uint64_t i = 1; i < nsym; i++) {
		cum += gap[i];
		uint64_t o = cum * room / total;
		uint64_t a = below(100);
		if (gap[i] == 0)
			o = off[i - 1];
		else if (a < 85)
			o &= ~UINT64_C(15);	/* most functions: 16-aligned */
		else if (a < 95)
			o &= ~UINT64_C(3);
		if (o < off[i - 1])
			o = off[i - 1];
		off[i] = o;
	}
	free(gap);

	/* Profile counters. */
	uint32_t *cnt = xcalloc(ncnt, sizeof *cnt);
	if (dense)
		nhot = 0;
	/* Hot functions: rank r gets about 400000 / r ticks, spread over
	 * up to 8 of its buckets (no counter above 60000). */
	for (uint64_t r = 1; r <= nhot; r++) {
		uint64_t i = 1 + below(nsym - 1), lo, hi;
		lo = off[i] / STEP;
		hi = (i + 1 < nsym ? off[i + 1] : text) / STEP;
		if (hi <= lo)
			hi = lo + 1;
		if (hi > ncnt)
			hi = ncnt;
		uint64_t ticks = 400000 / r + 1 + below(4);
		uint64_t spots = 1 + below(8);
		while (ticks) {
			uint64_t k = lo + below(hi - lo);
			uint64_t t = ticks / spots + 1;
			if (t > ticks)
				t = ticks;
			if (cnt[k] + t > 60000)
				t = 60000 - cnt[k];
			cnt[k] += (uint32_t)t;
			ticks -= t;
			if (spots > 1)
				spots--;
			if (t == 0)
				break;	/* this function is full */
		}
	}
	if (dense) {
		/* One counter in 50 is non-zero, 1 to 499. */
		for (uint64_t k = 0; k < ncnt; k++)
			if (below(50) == 0)
				cnt[k] = 1 + (uint32_t)below(499);
	} else {
		/* Background: single ticks in 1 of 2000 counters. */
		for (uint64_t k = 0, n = ncnt / 2000; k < n; k++)
			cnt[below(ncnt)] += 1 + (uint32_t)below(3);
		/* Ticks outside the core text land in the last counter. */
		cnt[ncnt - 1] += 48213;
	}

	char path[4096];
	FILE *pf = open_out(dir, "profile", path, sizeof path);
	unsigned char w[4];
	w[0] = STEP; w[1] = w[2] = w[3] = 0;
	fwrite(w, 1, 4, pf);
	for (uint64_t k = 0; k < ncnt; k++) {
		uint32_t v = cnt[k];
		w[0] = (unsigned char)v;
		w[1] = (unsigned char)(v >> 8);
		w[2] = (unsigned char)(v >> 16);
		w[3] = (unsigned char)(v >> 24);
		if (fwrite(w, 1, 4, pf) != 4)
			die("write error on", path);
	}
	close_out(pf, dir, "profile", path);
	free(cnt);

	char mpath[4096], name[128];
	FILE *mf = open_out(dir, "kallsyms", mpath, sizeof mpath);
	/* Per-cpu absolute symbols first, at small addresses. */
	map_line(mf, 0, 'A', "fixed_percpu_data");
	map_line(mf, 0, 'A', "__per_cpu_start");
	uint64_t pa = 0x1000;
	for (int i = 0; i < 380; i++) {
		make_name(name);
		map_line(mf, pa, 'A', name);
		pa += 8 * (1 + below(64));
	}
	map_line(mf, (pa + 0xfff) & ~UINT64_C(0xfff), 'A', "__per_cpu_end");
	/* Text. */
	map_line(mf, STEXT, 'T', "startup_64");
	map_line(mf, STEXT, 'T', "_stext");
	map_line(mf, STEXT, 'T', "_text");
	for (uint64_t i = 1; i < nsym; i++) {
		uint64_t t = below(1000);
		char type = t < 8 ? 'W' : t < 480 ? 'T' : 't';
		make_name(name);
		map_line(mf, STEXT + off[i], type, name);
	}
	uint64_t etext = STEXT + text;
	map_line(mf, etext, 'T', "_etext");
	map_line(mf, etext, 'T', "__indirect_thunk_end");
	/* Read-only data, data and bss, from the next 2 MiB boundary on. */
	uint64_t da = (etext + 0x1fffff) & ~UINT64_C(0x1fffff);
	map_line(mf, da, 'D', "__start_rodata");
	for (uint64_t i = 0; i < ndata; i++) {
		static const char types[] = "rrrrrRdddddddDbbbB";
		char type = types[i * (sizeof types - 1) / ndata];
		da += 8 * (1 + below(24));
		make_name(name);
		map_line(mf, da, type, name);
	}
	da = (da + 0xfff) & ~UINT64_C(0xfff);
	map_line(mf, da, 'B', "_end");
	map_line(mf, da, 'B', "__brk_limit");
	close_out(mf, dir, "kallsyms", mpath);
	free(off);
	return 0;
}
