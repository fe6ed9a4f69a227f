# Spinlock fairness lab: FIFO ticket spinlocks for x86 Linux 6.12.
#
#   make bench                 the benchmark: results/report.md and plots
#   make test                  every check (installs what it needs)
#   make soak [SOAK_SECS=600 SOAK_SMP=4 SOAK_TYPES=... SOAK_VARIANT=ticket|skip]
#                              locktorture + CPU hotplug
#   make boot VARIANT=ticket SMP=2   a guest shell on the serial console
#   make kernel VARIANT=ticket       unpack, patch and build one variant
#   make patches               export build/linux (base..HEAD) to patches/
#   make mutants [MUTANTS=...] build broken locks, show which checks catch them
#   make debian                Debian's own config with the boot-time choice:
#                              the whole image built and booted (hours)
#   make clean                 remove build/ and results/

# List mode (lab/checks.sh) is make test's to ask for, never inherited.
unexport LAB_LIST

VARIANT ?= ticket
SMP ?= 2

SOAK_SECS ?= 600
SOAK_SMP ?= 4
SOAK_TYPES ?= spin_lock,spin_lock_irq,raw_spin_lock,rw_lock
SOAK_VARIANT ?= ticket

.PHONY: all test bench soak boot kernel patches mutants debian clean

all: test

test:
	@sh tests/run

# Builds what is missing, boots the one image under each lock choice (and
# the dedicated kernels of the cross-check) at 2, 4 and 8 vCPUs, writes
# results/report.md (BENCH_* settings: see bench/scripts/run.sh).
bench:
	@sh bench/scripts/run.sh

# lab/soak.sh checks its arguments, then builds the ticket kernel if needed.
soak:
	@lab/soak.sh -d "$(SOAK_SECS)" -s "$(SOAK_SMP)" -t "$(SOAK_TYPES)" -v "$(SOAK_VARIANT)"

# The knobs are checked before anything is installed or built.
kernel:
	@lab/knobs.sh variant "$(VARIANT)" && lab/deps.sh && lab/tree.sh && lab/build.sh $(VARIANT)

boot:
	@lab/knobs.sh variant "$(VARIANT)" smp "$(SMP)"
	@$(MAKE) -s kernel VARIANT=$(VARIANT)
	@lab/initramfs.sh $(VARIANT) && lab/boot.sh -i $(VARIANT) $(SMP)

# Developers edit and commit in build/linux, then export the series here
# (with the cover letter's text kept).
patches:
	@lab/export.sh

# Mutants of the series, each built as the variant its patch names (ticket
# by default) and run through make test's checks of that variant; not part
# of make test (one kernel build each).
mutants:
	@sh mutants/run.sh $(MUTANTS)

# Debian's own amd64 configuration with the spinlock chosen at boot: its
# whole image built and booted once at 4 vCPUs; not part of make test.
debian:
	@lab/deps.sh && lab/tree.sh && lab/debian.sh

clean:
	rm -rf build results
