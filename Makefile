# Spinlock fairness lab: FIFO ticket spinlocks for x86 Linux 6.12.
#
#   make test                  every check (installs what it needs)
#   make boot VARIANT=ticket SMP=2   a guest shell on the serial console
#   make kernel VARIANT=ticket       unpack, patch and build one variant
#   make patches               export build/linux (base..HEAD) to patches/
#   make clean                 remove build/ and results/

VARIANT ?= ticket
SMP ?= 2

.PHONY: all test bench boot kernel patches clean

all: test

test:
	@sh tests/run

bench:
	@echo "make bench: not there yet (the benchmark is issue 3); see README.md" >&2
	@exit 1

kernel:
	@lab/deps.sh && lab/tree.sh && lab/build.sh $(VARIANT)

boot: kernel
	@lab/initramfs.sh $(VARIANT) && lab/boot.sh -i $(VARIANT) $(SMP)

# Developers edit and commit in build/linux, then export the series here.
patches:
	@git -C build/linux diff --quiet HEAD || { echo "error: uncommitted changes in build/linux" >&2; exit 1; }
	@rm -f patches/*.patch
	@git -C build/linux format-patch -q --no-signature --zero-commit -o ../../patches base..HEAD
	@(cd patches && ls *.patch) >patches/series
	@lab/tree.sh --mark
	@cat patches/series

clean:
	rm -rf build results
