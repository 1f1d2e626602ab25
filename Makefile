# lockdep-tool project: build the patched 6.12 kernel, boot it in QEMU,
# run every test.  `make help` lists the targets; V=1 shows every command.

SHELL := /bin/bash
TOP := $(CURDIR)
# kbuild and gen_init_cpio's file lists cannot take a space in a path
ifneq ($(words $(CURDIR)),1)
$(error the path of this clone has a space ('$(CURDIR)'): kbuild and the initramfs lists cannot work there; clone it elsewhere)
endif
BUILD := $(TOP)/build
KBUILD_LOCK ?= $(BUILD)/.kernel-build.lock
LOCK := flock $(KBUILD_LOCK)
export V
# Targets share build/ (tool objects, build/test): one at a time; the
# sub-makes and the kernel build still run their own jobs in parallel.
.NOTPARALLEL:

.PHONY: help deps kernel tree tool tool-static initramfs run test check \
	test-host test-guest bench fuzz check-series export-patches clean distclean

help:
	@echo 'make run             build everything, boot, land in a guest shell with the tool'
	@echo 'make test            every test, host and in QEMU; ends with "N passed, N failed"'
	@echo 'make check           host-only tests (no kernel needed)'
	@echo 'make deps            install missing Debian packages (as root) or name them'
	@echo 'make kernel          extract, patch, configure, build build/linux'
	@echo 'make tool            host lockdep-tool at build/lockdep-tool'
	@echo 'make initramfs       guest image build/initramfs.cpio.gz'
	@echo 'make bench           benchmarks (figures and ratios)'
	@echo 'make fuzz            long fuzzing runs of every parser'
	@echo 'make check-series    apply patches one at a time, build each'
	@echo 'make export-patches  rewrite patches/ from the commits in build/linux'
	@echo 'make clean           remove tool builds and run folders (keeps the kernel trees)'
	@echo 'make distclean       remove build/ entirely'

$(BUILD):
	@mkdir -p $@

deps: | $(BUILD)
	@scripts/deps.sh

kernel: deps | $(BUILD)
	@$(LOCK) scripts/kernel.sh all

tree: deps | $(BUILD)
	@$(LOCK) scripts/kernel.sh tree

tool: deps
	@$(MAKE) -s --no-print-directory -C lockdep-tool

tool-static: deps
	@$(MAKE) -s --no-print-directory -C lockdep-tool static

initramfs: kernel tool-static
	@scripts/initramfs.sh

run: initramfs
	@./run-qemu.sh

test: deps
	@scripts/test.sh all

check: deps
	@scripts/test.sh host

bench: initramfs
	@scripts/bench.sh

fuzz: deps
	@$(MAKE) --no-print-directory -C lockdep-tool fuzz

check-series: deps | $(BUILD)
	@$(LOCK) scripts/check-series.sh

export-patches:
	@scripts/kernel.sh export

clean:
	rm -rf $(BUILD)/runs $(BUILD)/test $(BUILD)/conformance $(BUILD)/tool \
		$(BUILD)/lockdep-tool $(BUILD)/lockdep-tool-static \
		$(BUILD)/initramfs.* $(BUILD)/logs

distclean:
	rm -rf $(BUILD)
