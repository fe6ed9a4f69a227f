/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim: static keys as the kernel builds them on x86
 * (arch/x86/include/asm/jump_label.h): a 5-byte NOP or JMP at each branch,
 * recorded in a __jump_table section, and rewritten when a key changes
 * (static_branch_enable() / _disable(), in lib/jump_label.c). Only
 * bench/tools/dispatch.c uses them, to measure the kernel's spinlock
 * dispatch (asm/spinlock_boot.h) with its branches patched as the kernel
 * patches them; other users of the shims include this header for nothing.
 * Code that uses a key must be built without PIE (-fno-pie -no-pie), as the
 * kernel is.
 */
#ifndef SHIM_LINUX_JUMP_LABEL_H
#define SHIM_LINUX_JUMP_LABEL_H

#include <stdbool.h>
#include <stdint.h>

struct static_key {
	int enabled;
};
struct static_key_true {
	struct static_key key;
};
struct static_key_false {
	struct static_key key;
};

/* One branch site: offsets from the entry, as the kernel's x86 entries. */
struct jump_entry {
	int32_t code;
	int32_t target;
	int64_t key;		/* key address + 1 if the branch is likely */
};

#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { { 0 } }
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name

/* The site at label 1 (as asm/jump_label.h's JUMP_TABLE_ENTRY). */
#define SHIM_JUMP_TABLE_ENTRY					\
	".pushsection __jump_table, \"aw\"\n\t"		\
	".balign 8\n\t"					\
	".long 1b - .\n\t"					\
	".long %l[l_yes] - .\n\t"				\
	".quad %c0 + %c1 - .\n\t"				\
	".popsection\n\t"

/* A NOP until the key says otherwise: taken only when patched to a JMP. */
static __attribute__((always_inline)) inline bool
arch_static_branch(struct static_key *const key, const bool branch)
{
	asm goto("1: .byte 0x0f,0x1f,0x44,0x00,0x00\n\t"
		 SHIM_JUMP_TABLE_ENTRY
		 : : "i" (key), "i" (branch) : : l_yes);
	return false;
l_yes:
	return true;
}

/* A JMP until the key says otherwise. */
static __attribute__((always_inline)) inline bool
arch_static_branch_jump(struct static_key *const key, const bool branch)
{
	asm goto("1: .byte 0xe9\n\t.long %l[l_yes] - 2f\n2:\n\t"
		 SHIM_JUMP_TABLE_ENTRY
		 : : "i" (key), "i" (branch) : : l_yes);
	return false;
l_yes:
	return true;
}

/* include/linux/jump_label.h's, for the false keys the dispatch uses. */
#define static_branch_likely(x)		\
	__builtin_expect(!arch_static_branch_jump(&(x)->key, true), 1)
#define static_branch_unlikely(x)	\
	__builtin_expect(arch_static_branch(&(x)->key, false), 0)
#define static_key_enabled(x)		(!!(x)->key.enabled)

void static_branch_enable(struct static_key_false *key);
void static_branch_disable(struct static_key_false *key);

#endif
