// SPDX-License-Identifier: GPL-2.0
/*
 * jump_label.c - static keys in user space (shim/linux/jump_label.h): a
 * change of a key rewrites every branch site of it in place, a 5-byte JMP
 * to its target where the branch must be taken and a 5-byte NOP where not,
 * as arch/x86/kernel/jump_label.c does with text_poke_early() while the
 * kernel boots. Single-threaded callers only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/jump_label.h>

extern struct jump_entry __start___jump_table[], __stop___jump_table[];

static void jump_label_update(struct static_key_false *k)
{
	static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	long page = sysconf(_SC_PAGESIZE);
	struct jump_entry *e;

	for (e = __start___jump_table; e < __stop___jump_table; e++) {
		uintptr_t key = (uintptr_t)&e->key + e->key;
		unsigned char *code = (unsigned char *)&e->code + e->code;
		unsigned char *target = (unsigned char *)&e->target + e->target;
		int likely = key & 1;
		unsigned char insn[5];
		uintptr_t start;

		if ((key & ~(uintptr_t)1) != (uintptr_t)&k->key)
			continue;
		if (k->key.enabled != likely) {
			int32_t rel = (int32_t)(target - (code + 5));

			insn[0] = 0xe9;
			memcpy(insn + 1, &rel, 4);
		} else {
			memcpy(insn, nop5, 5);
		}
		start = (uintptr_t)code & ~(uintptr_t)(page - 1);
		if (mprotect((void *)start, (uintptr_t)code + 5 - start,
			     PROT_READ | PROT_WRITE | PROT_EXEC)) {
			perror("jump_label: mprotect");
			exit(2);
		}
		memcpy(code, insn, 5);
		mprotect((void *)start, (uintptr_t)code + 5 - start, PROT_READ | PROT_EXEC);
	}
}

void static_branch_enable(struct static_key_false *key)
{
	key->key.enabled = 1;
	jump_label_update(key);
}

void static_branch_disable(struct static_key_false *key)
{
	key->key.enabled = 0;
	jump_label_update(key);
}
