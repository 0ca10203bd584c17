"""pmudb: hardware performance event names, encodings and counters, from
the pmudb catalog, without libpfm.

A thin layer over libpmudb (ctypes, Python's standard library): every
answer is the library's, the same as the ``pmudb`` command's.

    >>> import pmudb
    >>> pmudb.encode("gnr::MEM_LOAD_RETIRED.L3_MISS")["config"]
    8401
    >>> hex(pmudb.encode("MEM_LOAD_RETIRED.L3_MISS", cpu="GenuineIntel/6/0xad")["config"])
    '0x20d1'
    >>> pmudb.detect("GenuineIntel/6/0xad")["pmus"][:2]
    ['gnr', 'gnr_unc_cha']
    >>> pmudb.group(["gnr::INST_RETIRED.ANY", "gnr::MEM_LOAD_RETIRED.L3_MISS"])["fits"]
    True

Module functions use the built-in catalog (or ``$PMUDB_DB``); open another
with ``Catalog(path)``, which has the same methods.  A refusal raises
``PmudbError`` with the library's one-line message and its code.

The library is found as ``$PMUDB_LIBRARY``, else beside this package in a
source tree (``build/libpmudb.so``), else in the prefix it was installed
to (``PREFIX/lib/libpmudb.so.0``), else where the system's loader finds
``libpmudb``.
"""

import ctypes
import ctypes.util
import os
from pathlib import Path

__all__ = ["Catalog", "PmudbError", "encode", "encode_each", "decode", "search", "pmus", "info", "detect",
           "group", "metrics"]

# ---- the C declarations (include/pmudb.h) ---------------------------------

_SCOPE_MAX = 128
_GROUP_FIXED = 64


class _Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 512)]


class _Scope(ctypes.Structure):
    _fields_ = [("count", ctypes.c_int), ("pmus", ctypes.c_int * _SCOPE_MAX)]


class _Cpu(ctypes.Structure):
    _fields_ = [("vendor", ctypes.c_char * 16), ("family", ctypes.c_int), ("model", ctypes.c_int),
                ("stepping", ctypes.c_int)]


class _CpuMatch(ctypes.Structure):
    _fields_ = [("why", ctypes.c_char * 512), ("source", ctypes.c_char * 256)]


class _Encoding(ctypes.Structure):
    _fields_ = [("pmu", ctypes.c_char * 64), ("fstr", ctypes.c_char * 512), ("type", ctypes.c_int),
                ("sysfs_pmu", ctypes.c_char * 64), ("config", ctypes.c_uint64), ("config1", ctypes.c_uint64),
                ("config2", ctypes.c_uint64), ("exclude_user", ctypes.c_bool), ("exclude_kernel", ctypes.c_bool),
                ("exclude_hv", ctypes.c_bool), ("exclude_host", ctypes.c_bool), ("exclude_guest", ctypes.c_bool),
                ("precise_ip", ctypes.c_uint), ("sample_period", ctypes.c_uint64), ("freq", ctypes.c_bool),
                ("exclusive", ctypes.c_bool), ("pinned", ctypes.c_bool), ("cpu", ctypes.c_int)]


class _PmuInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("description", ctypes.c_char_p), ("kind", ctypes.c_char_p),
                ("family", ctypes.c_char_p), ("family_group", ctypes.c_char_p), ("num_counters", ctypes.c_int),
                ("num_fixed_counters", ctypes.c_int), ("perf_type", ctypes.c_int), ("sysfs_pmu", ctypes.c_char_p),
                ("event_count", ctypes.c_int), ("source", ctypes.c_char_p), ("like", ctypes.c_char_p)]


class _EventInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("description", ctypes.c_char_p), ("equiv", ctypes.c_char_p),
                ("code", ctypes.c_uint64), ("is_precise", ctypes.c_bool), ("umask_count", ctypes.c_int),
                ("modifier_count", ctypes.c_int), ("source", ctypes.c_char_p), ("why", ctypes.c_char_p)]


class _UmaskInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("description", ctypes.c_char_p), ("equiv", ctypes.c_char_p),
                ("source", ctypes.c_char_p), ("why", ctypes.c_char_p), ("code", ctypes.c_uint64),
                ("is_default", ctypes.c_bool)]


class _ModifierInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("description", ctypes.c_char_p), ("is_integer", ctypes.c_bool),
                ("from_perf", ctypes.c_bool), ("min", ctypes.c_uint64), ("max", ctypes.c_uint64),
                ("range_known", ctypes.c_bool), ("default_value", ctypes.c_uint64)]


class _Decoded(ctypes.Structure):
    _fields_ = [("event", ctypes.c_char_p), ("exact", ctypes.c_bool), ("left", ctypes.c_uint64 * 3)]


class _Metric(ctypes.Structure):
    _fields_ = [(name, ctypes.c_char_p) for name in
                ("pmu", "uarch", "name", "description", "expr", "groups", "threshold", "scale_unit", "constraint",
                 "missing", "source")]


class _CounterCount(ctypes.Structure):
    _fields_ = [("generic", ctypes.c_int), ("generic_smt_off", ctypes.c_int), ("fixed", ctypes.c_int),
                ("known", ctypes.c_bool), ("source", ctypes.c_char * 256)]


class _Counters(ctypes.Structure):
    _fields_ = [("general", ctypes.c_uint64), ("fixed", ctypes.c_uint64), ("pebs", ctypes.c_uint64),
                ("taken_alone", ctypes.c_bool), ("free_running", ctypes.c_bool), ("no_counter", ctypes.c_bool),
                ("stated", ctypes.c_bool), ("event", ctypes.c_char * 224), ("source", ctypes.c_char * 288)]


class _GroupOptions(ctypes.Structure):
    _fields_ = [("smt_off", ctypes.c_bool), ("generic", ctypes.c_int), ("fixed", ctypes.c_int)]


class _GroupMember(ctypes.Structure):
    _fields_ = [("event", ctypes.c_int), ("enc", _Encoding), ("where", _Counters), ("counter", ctypes.c_int),
                ("part", ctypes.c_int), ("competes", ctypes.c_bool)]


class _GroupPmu(ctypes.Structure):
    _fields_ = [("pmu", ctypes.c_char * 64), ("count", _CounterCount), ("fits", ctypes.c_bool),
                ("could_fit", ctypes.c_bool), ("parts", ctypes.c_int), ("exact", ctypes.c_bool),
                ("competing_counters", ctypes.c_int), ("first", ctypes.c_int), ("n", ctypes.c_int)]


class _Group(ctypes.Structure):
    _fields_ = [("npmus", ctypes.c_int), ("nmembers", ctypes.c_int), ("pmus", ctypes.POINTER(_GroupPmu)),
                ("members", ctypes.POINTER(_GroupMember))]


_SEARCH_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int)
_DECODE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_Decoded))
_METRIC_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_Metric))


def _find_library():
    """The path of libpmudb, as the module's docstring says."""
    given = os.environ.get("PMUDB_LIBRARY")
    if given:
        return given
    here = Path(__file__).resolve().parent
    candidates = [here.parents[1] / "build" / "libpmudb.so"]      # a source tree: python/pmudb/
    candidates += [p / "libpmudb.so.0" for p in here.parents[:4]]  # PREFIX/lib/pythonX.Y/site-packages/pmudb
    for c in candidates:
        if c.is_file():
            return str(c)
    found = ctypes.util.find_library("pmudb")
    if found:
        return found
    raise ImportError("pmudb: libpmudb not found: build it (make) or set PMUDB_LIBRARY to its path")


def _declare(lib):
    p = ctypes.POINTER
    sigs = {
        "pmudb_open": (ctypes.c_void_p, [ctypes.c_char_p, p(_Error)]),
        "pmudb_close": (None, [ctypes.c_void_p]),
        "pmudb_strerror": (ctypes.c_char_p, [ctypes.c_int]),
        "pmudb_error_name": (ctypes.c_char_p, [ctypes.c_int]),
        "pmudb_meta": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_char_p]),
        "pmudb_cpu_parse": (ctypes.c_int, [ctypes.c_char_p, p(_Cpu), p(_Error)]),
        "pmudb_cpu_host": (ctypes.c_int, [p(_Cpu), p(_Error)]),
        "pmudb_scope_cpu": (ctypes.c_int, [ctypes.c_void_p, p(_Cpu), p(_Scope), p(_CpuMatch), p(_Error)]),
        "pmudb_scope_pmu": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, p(_Scope), p(_Error)]),
        "pmudb_encode": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, p(_Scope), p(_Encoding), p(_Error)]),
        "pmudb_encode_each": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, p(_Scope), p(_Encoding), ctypes.c_int,
                                             p(_Error)]),
        "pmudb_perf_syntax": (ctypes.c_int, [ctypes.c_void_p, p(_Encoding), ctypes.c_char_p, ctypes.c_size_t,
                                             p(_Error)]),
        "pmudb_pmu_count": (ctypes.c_int, [ctypes.c_void_p]),
        "pmudb_pmu_info": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, p(_PmuInfo)]),
        "pmudb_find_pmu": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p]),
        "pmudb_event_info": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, p(_EventInfo)]),
        "pmudb_umask_info": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, p(_UmaskInfo)]),
        "pmudb_modifier_info": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                               p(_ModifierInfo)]),
        "pmudb_find_event": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, p(_Scope), p(ctypes.c_int),
                                            p(ctypes.c_int), p(_Error)]),
        "pmudb_search": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, _SEARCH_FN, ctypes.c_void_p]),
        "pmudb_decoder_open": (ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_int, p(_Error)]),
        "pmudb_decoder_close": (None, [ctypes.c_void_p]),
        "pmudb_decode": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_uint64,
                                        ctypes.c_int, _DECODE_FN, ctypes.c_void_p, p(_Error)]),
        "pmudb_metrics": (ctypes.c_int, [ctypes.c_void_p, p(_Scope), ctypes.c_char_p, _METRIC_FN, ctypes.c_void_p,
                                         p(_Error)]),
        "pmudb_counters": (ctypes.c_int, [ctypes.c_void_p, p(_Encoding), ctypes.c_bool, p(_CounterCount),
                                          p(_Counters), p(_Error)]),
        "pmudb_group": (ctypes.c_int, [ctypes.c_void_p, p(ctypes.c_char_p), ctypes.c_int, p(_Scope),
                                       p(_GroupOptions), p(_Group), p(_Error)]),
        "pmudb_group_free": (None, [p(_Group)]),
    }
    for name, (restype, argtypes) in sigs.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = argtypes


_lib = ctypes.CDLL(_find_library())
_declare(_lib)


def _s(b):
    return b.decode("utf-8", "replace") if b is not None else None


class PmudbError(Exception):
    """A refusal: ``message`` is the library's one line naming the input at
    fault, ``code`` its status (libpfm's error numbers, or pmudb's -100 and
    -101), ``name`` the code's name ("PFM_ERR_UMASK", "PMUDB_ERR_CATALOG")."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message
        self.name = _s(_lib.pmudb_error_name(code))


def _check(r, err):
    if r < 0:
        raise PmudbError(r, _s(err.message) or _s(_lib.pmudb_strerror(r)))
    return r


def _encoding_dict(e):
    return {
        "pmu": _s(e.pmu), "fstr": _s(e.fstr), "type": e.type, "sysfs_pmu": _s(e.sysfs_pmu) or None,
        "config": e.config, "config1": e.config1, "config2": e.config2,
        "exclude_user": e.exclude_user, "exclude_kernel": e.exclude_kernel, "exclude_hv": e.exclude_hv,
        "exclude_host": e.exclude_host, "exclude_guest": e.exclude_guest, "precise_ip": e.precise_ip,
        "sample_period": e.sample_period, "freq": e.freq, "exclusive": e.exclusive, "pinned": e.pinned,
        "cpu": e.cpu,
    }


class Catalog:
    """An open pmudb catalog: PATH, or the built-in one (``$PMUDB_DB`` when
    set).  Usable as a context manager; closed when collected."""

    def __init__(self, path=None):
        if path is None:
            path = os.environ.get("PMUDB_DB") or None
        err = _Error()
        self._db = _lib.pmudb_open(path.encode() if path else None, ctypes.byref(err))
        if not self._db:
            raise PmudbError(err.code, _s(err.message))
        self.path = path

    def close(self):
        if getattr(self, "_db", None):
            _lib.pmudb_close(self._db)
            self._db = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:       # at interpreter exit the library may be gone first
            pass

    # ---- scopes ---------------------------------------------------------

    def _scope(self, cpu=None, pmu=None):
        """The scope of CPU ("GenuineIntel/6/0xad") or PMU (a PMU or a
        µarch name); None for neither: the catalog's PMUs in order."""
        if cpu is None and pmu is None:
            return None
        err, scope = _Error(), _Scope()
        if pmu is not None:
            _check(_lib.pmudb_scope_pmu(self._db, pmu.encode(), ctypes.byref(scope), ctypes.byref(err)), err)
            return scope
        c = _Cpu()
        _check(_lib.pmudb_cpu_parse(cpu.encode(), ctypes.byref(c), ctypes.byref(err)), err)
        _check(_lib.pmudb_scope_cpu(self._db, ctypes.byref(c), ctypes.byref(scope), None, ctypes.byref(err)), err)
        return scope

    def _pmu_name(self, index):
        info = _PmuInfo()
        if _lib.pmudb_pmu_info(self._db, index, ctypes.byref(info)):
            raise PmudbError(-100, "catalog: PMU %d cannot be read" % index)
        return _s(info.name)

    # ---- encoding -------------------------------------------------------

    def encode(self, event, cpu=None, pmu=None):
        """EVENT ("pmu::event:umask:modifier", or a name looked up in the
        PMUs of CPU or PMU) as libpfm would encode it: a dict of the
        perf_event_attr fields, ``fstr`` (libpfm's fully qualified string)
        and ``perf`` (perf's syntax, or None where perf has none)."""
        err, enc = _Error(), _Encoding()
        scope = self._scope(cpu, pmu)
        _check(_lib.pmudb_encode(self._db, event.encode(), ctypes.byref(scope) if scope else None,
                                 ctypes.byref(enc), ctypes.byref(err)), err)
        d = _encoding_dict(enc)
        buf = ctypes.create_string_buffer(1024)
        d["perf"] = _s(buf.value) if not _lib.pmudb_perf_syntax(self._db, ctypes.byref(enc), buf, len(buf),
                                                                  None) else None
        return d

    def encode_each(self, event, cpu=None, pmu=None):
        """EVENT on each core type of a hybrid CPU that has it: a list of
        encode()'s dicts (one on a CPU of one core type)."""
        err = _Error()
        encs = (_Encoding * 8)()
        scope = self._scope(cpu, pmu)
        n = _check(_lib.pmudb_encode_each(self._db, event.encode(), ctypes.byref(scope) if scope else None, encs,
                                          8, ctypes.byref(err)), err)
        return [_encoding_dict(encs[i]) for i in range(n)]

    def decode(self, pmu, config, config1=0, config2=0, max=8):
        """The event strings of PMU that encode to CONFIG (CONFIG1,
        CONFIG2): a list of dicts {event, exact, left}; when none is exact,
        the nearest one with the bits it leaves over."""
        err = _Error()
        index = _lib.pmudb_find_pmu(self._db, pmu.encode())
        if index < 0:
            raise PmudbError(-4, "unknown PMU '%s'" % pmu)
        dec = _lib.pmudb_decoder_open(self._db, index, ctypes.byref(err))
        if not dec:
            raise PmudbError(err.code, _s(err.message))
        found = []

        def one(ctx, d):
            found.append({"event": _s(d.contents.event), "exact": d.contents.exact,
                          "left": list(d.contents.left)})
            return 0
        try:
            _check(_lib.pmudb_decode(dec, config, config1, config2, max, _DECODE_FN(one), None, ctypes.byref(err)),
                   err)
        finally:
            _lib.pmudb_decoder_close(dec)
        return found

    # ---- browsing -------------------------------------------------------

    def pmus(self):
        """Every PMU of the catalog: a list of dicts."""
        out = []
        for i in range(_lib.pmudb_pmu_count(self._db)):
            p = _PmuInfo()
            if _lib.pmudb_pmu_info(self._db, i, ctypes.byref(p)):
                raise PmudbError(-100, "catalog: PMU %d cannot be read" % i)
            out.append({"name": _s(p.name), "kind": _s(p.kind), "family": _s(p.family),
                        "family_group": _s(p.family_group), "events": p.event_count, "source": _s(p.source),
                        "like": _s(p.like), "sysfs_pmu": _s(p.sysfs_pmu), "perf_type": p.perf_type,
                        "description": _s(p.description)})
        return out

    def search(self, text, cpu=None, pmu=None):
        """Events and unit masks whose name or description has TEXT (or
        whose name matches a glob): a list of dicts {pmu, event, umask,
        description}, as ``pmudb search --json``."""
        found = []
        scope = self._scope(cpu, pmu)
        allowed = set(scope.pmus[:scope.count]) if scope else None

        def one(ctx, p, e, u):
            if allowed is not None and p not in allowed:
                return 0
            ev = _EventInfo()
            if _lib.pmudb_event_info(self._db, p, e, ctypes.byref(ev)):
                return 0
            um, description = None, _s(ev.description)
            if u >= 0:
                ui = _UmaskInfo()
                if not _lib.pmudb_umask_info(self._db, p, e, u, ctypes.byref(ui)):
                    um, description = _s(ui.name), _s(ui.description)
            found.append({"pmu": self._pmu_name(p), "event": _s(ev.name), "umask": um, "description": description})
            return 0
        _lib.pmudb_search(self._db, text.encode(), _SEARCH_FN(one), None)
        return found

    def info(self, event, cpu=None, pmu=None):
        """An event: its code, description, unit masks, modifiers and
        where it may be counted (the PMU's counters, each unit mask's)."""
        err = _Error()
        scope = self._scope(cpu, pmu)
        p, e = ctypes.c_int(-1), ctypes.c_int(-1)
        _check(_lib.pmudb_find_event(self._db, event.encode(), ctypes.byref(scope) if scope else None,
                                     ctypes.byref(p), ctypes.byref(e), ctypes.byref(err)), err)
        ev = _EventInfo()
        if _lib.pmudb_event_info(self._db, p, e, ctypes.byref(ev)):
            raise PmudbError(-100, "catalog: event %d of PMU %d cannot be read" % (e.value, p.value))
        name = self._pmu_name(p.value)
        out = {"pmu": name, "event": _s(ev.name), "code": ev.code, "precise": ev.is_precise,
               "description": _s(ev.description), "equiv": _s(ev.equiv), "source": _s(ev.source), "why": _s(ev.why),
               "umasks": [], "modifiers": []}
        for u in range(ev.umask_count):
            um = _UmaskInfo()
            if _lib.pmudb_umask_info(self._db, p, e, u, ctypes.byref(um)):
                continue
            out["umasks"].append({"name": _s(um.name), "code": um.code, "default": um.is_default,
                                  "description": _s(um.description), "source": _s(um.source), "why": _s(um.why)})
        for m in range(ev.modifier_count):
            mi = _ModifierInfo()
            if _lib.pmudb_modifier_info(self._db, p, e, m, ctypes.byref(mi)):
                continue
            out["modifiers"].append({"name": _s(mi.name), "type": "int" if mi.is_integer else "bool",
                                     "perf": mi.from_perf, "min": mi.min if mi.range_known else None,
                                     "max": mi.max if mi.range_known else None,
                                     "description": _s(mi.description)})
        return out

    def detect(self, cpu=None):
        """The PMUs of CPU ("GenuineIntel/6/0xad"; None: this machine's):
        a dict {vendor, family, model, stepping, pmus (names, the core PMU
        first), why, source}, as ``pmudb detect --json``."""
        err, c, scope, match = _Error(), _Cpu(), _Scope(), _CpuMatch()
        if cpu is None:
            _check(_lib.pmudb_cpu_host(ctypes.byref(c), ctypes.byref(err)), err)
        else:
            _check(_lib.pmudb_cpu_parse(cpu.encode(), ctypes.byref(c), ctypes.byref(err)), err)
        _check(_lib.pmudb_scope_cpu(self._db, ctypes.byref(c), ctypes.byref(scope), ctypes.byref(match),
                                    ctypes.byref(err)), err)
        return {"vendor": _s(c.vendor), "family": c.family, "model": c.model, "stepping": c.stepping,
                "pmus": [self._pmu_name(scope.pmus[i]) for i in range(scope.count)],
                "why": _s(match.why), "source": _s(match.source)}

    def metrics(self, name=None, cpu=None, pmu=None):
        """The vendors' metrics of CPU's or PMU's PMUs (NAME: a metric or a
        group of them; None: all): a list of dicts."""
        err = _Error()
        scope = self._scope(cpu, pmu)
        found = []
        keys = [f[0] for f in _Metric._fields_]

        def one(ctx, m):
            found.append({k: _s(getattr(m.contents, k)) for k in keys})
            return 0
        _check(_lib.pmudb_metrics(self._db, ctypes.byref(scope) if scope else None, name.encode() if name else None,
                                  _METRIC_FN(one), None, ctypes.byref(err)), err)
        return found

    def group(self, events, cpu=None, pmu=None, smt_off=False, counters=None):
        """Whether EVENTS can be counted at once, one group per PMU: the same
        answer as ``pmudb group --json`` (docs/commands.md): a dict {fits,
        pmus}.  COUNTERS: (general, fixed) for a PMU nothing states."""
        err, g = _Error(), _Group()
        scope = self._scope(cpu, pmu)
        names = (ctypes.c_char_p * len(events))(*[e.encode() for e in events])
        opt = _GroupOptions(smt_off, counters[0] if counters else 0, counters[1] if counters else 0)
        _check(_lib.pmudb_group(self._db, names, len(events), ctypes.byref(scope) if scope else None,
                                ctypes.byref(opt), ctypes.byref(g), ctypes.byref(err)), err)
        try:
            out = {"fits": all(g.pmus[i].fits for i in range(g.npmus)), "pmus": []}
            for i in range(g.npmus):
                u = g.pmus[i]
                members = []
                for k in range(u.first, u.first + u.n):
                    m = g.members[k]
                    w = m.where
                    counter = None
                    if m.counter >= 0:
                        counter = {"kind": "fixed" if m.counter >= _GROUP_FIXED else "general",
                                   "number": m.counter % _GROUP_FIXED}
                    members.append({"event": events[m.event], "index": m.event, "config": m.enc.config,
                                    "counter": counter, "general": w.general, "fixed": w.fixed, "pebs": w.pebs,
                                    "taken_alone": w.taken_alone, "no_counter": w.no_counter, "stated": w.stated,
                                    "rule": _s(w.event) if w.stated else None, "source": _s(w.source),
                                    "part": m.part, "competes": m.competes})
                out["pmus"].append({"pmu": _s(u.pmu), "generic": u.count.generic, "fixed": u.count.fixed,
                                    "generic_smt_off": u.count.generic_smt_off if u.count.generic_smt_off >= 0
                                    else None,
                                    "counters_source": _s(u.count.source) if u.count.known else None, "fits": u.fits, "could_fit": u.could_fit,
                                    "parts": u.parts, "exact": u.exact, "competing_counters": u.competing_counters,
                                    "events": members})
            return out
        finally:
            _lib.pmudb_group_free(ctypes.byref(g))

    def meta(self, key):
        """What the catalog records of its making ("libpfm_version",
        "vendor_tree", "schema_version" ...), or None."""
        return _s(_lib.pmudb_meta(self._db, key.encode()))


# ---- module functions, on one catalog opened on first use -----------------

_default = None


def _catalog(db):
    global _default
    if db is not None:
        return db
    if _default is None:
        _default = Catalog()
    return _default


def encode(event, cpu=None, pmu=None, db=None):
    return _catalog(db).encode(event, cpu, pmu)


def encode_each(event, cpu=None, pmu=None, db=None):
    return _catalog(db).encode_each(event, cpu, pmu)


def decode(pmu, config, config1=0, config2=0, max=8, db=None):
    return _catalog(db).decode(pmu, config, config1, config2, max)


def search(text, cpu=None, pmu=None, db=None):
    return _catalog(db).search(text, cpu, pmu)


def pmus(db=None):
    return _catalog(db).pmus()


def info(event, cpu=None, pmu=None, db=None):
    return _catalog(db).info(event, cpu, pmu)


def detect(cpu=None, db=None):
    return _catalog(db).detect(cpu)


def metrics(name=None, cpu=None, pmu=None, db=None):
    return _catalog(db).metrics(name, cpu, pmu)


def group(events, cpu=None, pmu=None, smt_off=False, counters=None, db=None):
    return _catalog(db).group(events, cpu, pmu, smt_off, counters)


for _f in (encode, encode_each, decode, search, pmus, info, detect, metrics, group):
    _f.__doc__ = getattr(Catalog, _f.__name__).__doc__ + "\n\n(On the default catalog, or DB, a Catalog.)"
