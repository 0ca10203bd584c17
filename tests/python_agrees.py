"""python_agrees.py STRINGS PMUDB CATALOG: the Python module's answers
against the pmudb command's, run by test_python.c.

STRINGS holds event strings, one a line (a sample of the harness corpus).
Each is encoded by the module and by `PMUDB --db CATALOG encode --stdin`,
and every field compared, refusals by their error code's name; then
pmus, search, info, detect and group against their --json.  Prints what
it compared; exits 1 on the first differences (the first ten shown).
"""

import json
import subprocess
import sys

import pmudb

strings_file, binary, catalog = sys.argv[1:4]
db = pmudb.Catalog(catalog)
differ = []


def cli(*args, stdin=None):
    r = subprocess.run([binary, "--db", catalog, *args], input=stdin, capture_output=True, text=True)
    return r.stdout


def same(what, a, b):
    if a != b:
        differ.append("%s: module %r, command %r" % (what, a, b))


# ---- encode: every string ----------------------------------------------
with open(strings_file) as f:
    strings = [line.rstrip("\n") for line in f if line.strip()]
answers = cli("encode", "--stdin", stdin="\n".join(strings) + "\n").splitlines()
assert len(answers) == len(strings), "encode --stdin answered %d of %d lines" % (len(answers), len(strings))
encoded = refused = 0
for s, line in zip(strings, answers):
    c = json.loads(line)
    try:
        m = db.encode(s)
    except pmudb.PmudbError as e:
        refused += 1
        same(s, e.name, c.get("error_code"))
        continue
    encoded += 1
    if "error" in c:
        same(s, "encoded", c["error"])
        continue
    for key in ("pmu", "fstr", "type", "precise_ip", "sample_period"):
        same("%s %s" % (s, key), m[key], c[key])
    for key in ("config", "config1", "config2"):
        same("%s %s" % (s, key), m[key], int(c[key], 16))
    for key in ("exclude_user", "exclude_kernel", "exclude_hv", "exclude_host", "exclude_guest", "freq", "exclusive",
                "pinned"):
        same("%s %s" % (s, key), int(m[key]), c[key])

# ---- the browsing commands, against their --json ---------------------------
pmus = json.loads(cli("pmus", "--json"))
same("pmus", [(p["name"], p["kind"], p["family"], p["events"], p["source"]) for p in db.pmus()],
     [(p["name"], p["kind"], p["family"], p["events"], p["source"]) for p in pmus])
found = json.loads(cli("search", "--json", "L3_MISS"))
same("search L3_MISS", [(x["pmu"], x["event"], x["umask"], x["description"]) for x in db.search("L3_MISS")],
     [(x["pmu"], x["event"], x.get("umask"), x["description"]) for x in found])
infos = 0
for event in ("skl::INST_RETIRED", "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS", "gnr::MEM_LOAD_RETIRED",
              "arm_n1::CPU_CYCLES"):
    out = cli("info", "--json", event)
    if not out:
        continue
    c, m = json.loads(out), db.info(event)
    infos += 1
    same("info %s" % event, (m["pmu"], m["event"], m["code"], [(u["name"], u["code"]) for u in m["umasks"]],
                             [x["name"] for x in m["modifiers"]]),
         (c["pmu"], c["event"], int(c["code"], 16), [(u["name"], int(u["code"], 16)) for u in c["umasks"]],
          [x["name"] for x in c["modifiers"]]))
detected = json.loads(cli("--cpu", "GenuineIntel/6/0x55/4", "detect", "--json"))
same("detect", db.detect("GenuineIntel/6/0x55/4")["pmus"], detected["pmus"])
groups = 0
for events in (["skl::INST_RETIRED:ANY_P", "skl::BR_MISP_RETIRED"],
               ["gnr::MEM_LOAD_RETIRED.L3_MISS", "gnr::L1D_PEND_MISS.PENDING", "gnr::OFFCORE_REQUESTS.DEMAND_DATA_RD",
                "gnr::L2_LINES_OUT.SILENT", "gnr::BACLEARS.ANY", "gnr::INST_RETIRED.ANY"]):
    out = cli("group", "--json", *events)
    if not out:
        continue
    c, m = json.loads(out), db.group(events)
    groups += 1
    same("group %s" % events, (m["fits"], [(p["pmu"], p["fits"], p["parts"]) for p in m["pmus"]],
                               [(e["event"], e["counter"], e["part"]) for p in m["pmus"] for e in p["events"]]),
         (c["fits"], [(p["pmu"], p["fits"], p["parts"]) for p in c["pmus"]],
          [(e["event"], e["counter"], e["part"]) for p in c["pmus"] for e in p["events"]]))

print("python module against the command: %d strings (%d encoded, %d refused), %d PMUs, %d search answers, "
      "%d events' info, detect, %d groups: %d differ" % (len(strings), encoded, refused, len(pmus), len(found), infos,
                                                         groups, len(differ)))
for d in differ[:10]:
    print("  " + d)
sys.exit(1 if differ else 0)
