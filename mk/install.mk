# mk/install.mk - make install PREFIX=/usr/local DESTDIR= ; make uninstall.
# The command, the library (shared, with its soname links, and static),
# its header, the catalog file (share/pmudb/pmudb.db, which
# pmudb_open_installed() finds), pmudb.pc for pkg-config, the man pages,
# and the Python module (python/pmudb) in PYTHON_SITE: where python3
# already reads modules under the prefix (Debian's: /usr/local/lib/
# python3.X/dist-packages), else the prefix's lib/python3.X/site-packages
# (mk/python_site.py); give PYTHON_SITE=... for another place.
# uninstall removes exactly these files (and share/pmudb when it is left
# empty), nothing else: the list is INSTALLED_FILES, with the bytecode
# Python compiled from the module.
PREFIX ?= /usr/local
DESTDIR ?=
SONAME := libpmudb.so.0
PYTHON_SITE ?= $(shell python3 mk/python_site.py '$(PREFIX)' 2>/dev/null || echo lib/python3/site-packages)
INSTALLED_FILES := $(PYTHON_SITE)/pmudb/__init__.py bin/pmudb lib/libpmudb.so.$(VERSION) lib/$(SONAME) lib/libpmudb.so lib/libpmudb.a \
	include/pmudb.h share/pmudb/pmudb.db lib/pkgconfig/pmudb.pc share/man/man1/pmudb.1 share/man/man3/libpmudb.3
$(BUILD)/pmudb.pc: docs/pmudb.pc.in include/pmudb.h FORCE
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' $< > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

.PHONY: install uninstall
install: $(BUILD)/pmudb $(BUILD)/libpmudb.so $(BUILD)/libpmudb.a $(BUILD)/pmudb.db $(BUILD)/pmudb.pc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/share/pmudb $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 755 $(BUILD)/pmudb $(DESTDIR)$(PREFIX)/bin/pmudb
	install -m 755 $(BUILD)/libpmudb.so $(DESTDIR)$(PREFIX)/lib/libpmudb.so.$(VERSION)
	ln -sf libpmudb.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libpmudb.so
	install -m 644 $(BUILD)/libpmudb.a $(DESTDIR)$(PREFIX)/lib/libpmudb.a
	install -m 644 include/pmudb.h $(DESTDIR)$(PREFIX)/include/pmudb.h
	install -m 644 $(BUILD)/pmudb.db $(DESTDIR)$(PREFIX)/share/pmudb/pmudb.db
	install -m 644 $(BUILD)/pmudb.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/pmudb.pc
	install -m 644 docs/pmudb.1 $(DESTDIR)$(PREFIX)/share/man/man1/pmudb.1
	install -m 644 docs/libpmudb.3 $(DESTDIR)$(PREFIX)/share/man/man3/libpmudb.3
	install -d $(DESTDIR)$(PREFIX)/$(PYTHON_SITE)/pmudb
	install -m 644 python/pmudb/__init__.py $(DESTDIR)$(PREFIX)/$(PYTHON_SITE)/pmudb/__init__.py

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED_FILES))
	rmdir $(DESTDIR)$(PREFIX)/share/pmudb 2>/dev/null || true
	rm -f $(DESTDIR)$(PREFIX)/$(PYTHON_SITE)/pmudb/__pycache__/__init__.*.pyc
	rmdir $(DESTDIR)$(PREFIX)/$(PYTHON_SITE)/pmudb/__pycache__ 2>/dev/null || true
	rmdir $(DESTDIR)$(PREFIX)/$(PYTHON_SITE)/pmudb 2>/dev/null || true

