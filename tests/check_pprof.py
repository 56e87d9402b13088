# SPDX-License-Identifier: GPL-3.0-or-later
# tests/check_pprof.py - checks for tests/viewer-pprof.sh: ospview --pprof's profile, as
# protoc decoded it (text format, with tests/progs/profile.proto), and --folded's lines, each
# against --json and the batch screens of the same view.  Nothing of ospview's encoder is used:
# protoc reads the protobuf, python3's gzip the gzip member.
#
#   check_pprof.py pprof DECODED.txt JSON BATCH SCREENS    the decoded profile
#   check_pprof.py folded FOLDED JSON BATCH SCREENS KIND   --folded lines (KIND: execs, work)
#
# SCREENS: the profiles exported, comma-separated (subpaths,paths,forest).  Prints the
# problems; exit status 1 if there was one.
import json
import re
import sys

bad = []


def check(ok, what):
    if not ok:
        bad.append(what)


def rnd(x):
    """an estimate as ospview writes it where integers are wanted: nearest, halves up"""
    return int(x + 0.5) if x > 0 else 0


def parse_text(text):
    """protoc's text format as nested dicts: every field a list of values"""
    root = {}
    stack = [root]
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        if line.endswith("{"):
            sub = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(sub)
            stack.append(sub)
            continue
        key, _, val = line.partition(": ")
        if val.startswith('"'):
            val = val[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
            val = val.encode("latin-1").decode("utf-8")
        elif val in ("true", "false"):
            val = val == "true"
        else:
            val = int(val)
        stack[-1].setdefault(key, []).append(val)
    return root


def one(msg, key, default=0):
    return msg.get(key, [default])[0]


def batch_tables(path):
    """title -> (total, rows) of the batch screens (rows: the lines after the header)"""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    out = {}
    for i, l in enumerate(lines):
        m = re.match(r"(hottest subpaths|hottest Ball-Larus paths|prefix forest) \((\d+) of (\d+)\)", l)
        if m:
            rows = []
            for r in lines[i + 2:]:
                if r == "":
                    break
                rows.append(r)
            out[m.group(1)] = (int(m.group(3)), rows)
    return out


def expected(doc, screens):
    """the rows of the exported profiles, in order: (profile, row, stack of [fn, block])"""
    rows = []
    for prof in ("subpaths", "paths", "forest"):
        if prof not in screens:
            continue
        for i, r in enumerate(doc[prof]):
            stack = list(r["blocks"])
            if prof == "forest":
                p = r["parent"]
                while p is not None:
                    stack = doc["forest"][p]["blocks"] + stack
                    p = doc["forest"][p]["parent"]
            rows.append((prof, r, stack))
    return rows


def block_line(doc, fn, block):
    for b in doc["functions"][fn]["blocks"]:
        if b["block"] == block:
            return b["lines"][0] if b["lines"] else 0
    return None


def run_value(doc, prof, row):
    run = doc["run"]
    if prof == "subpaths":
        return "exact" if run["mode"] == "subpaths-exact" else "estimate"
    if prof == "paths":
        if run["paths"] == "timer":
            return "samples"
        return "exact" if run["paths"] == "exhaustive" or row["err95"] == 0 else "estimate"
    return "exact" if run["forest"] == "exhaustive" else "estimate"


def fn_runs(names):
    """consecutive equal names as one: the functions a batch row names, in order"""
    out = []
    for n in names:
        if not out or out[-1] != n:
            out.append(n)
    return out


def batch_check(doc, rows, tables, screens, value_of):
    """the exported rows against the batch screens: the totals in the titles, and the paths'
    and the forest's rows (all listed with --top=0 --sort=rank, in the view's order): the
    estimate column and the functions the path text names"""
    titles = {"subpaths": "hottest subpaths", "paths": "hottest Ball-Larus paths",
              "forest": "prefix forest"}
    for prof in ("subpaths", "paths", "forest"):
        if prof not in screens:
            continue
        mine = [r for r in rows if r[0] == prof]
        total, trows = tables.get(titles[prof], (None, []))
        check(total == len(mine), "%s: %d rows exported, the batch screen's title says %s"
              % (prof, len(mine), total))
        if prof == "subpaths":
            continue
        check(len(trows) == len(mine), "%s: %d batch rows, %d exported" % (prof, len(trows), len(mine)))
        for k, (trow, (_, r, stack)) in enumerate(zip(trows, mine)):
            cols = trow.split()
            est = cols[0] if prof == "forest" else cols[1]
            est = int(est.lstrip("~"))
            got = value_of(k, prof)
            check(abs(est - got) <= 1, "%s row %d: batch estimate %d, exported %d" % (prof, k, est, got))
            names = re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\(\)", trow)
            own = [doc["functions"][f]["name"] for f, _ in r["blocks"]]
            check(fn_runs(own) == names, "%s row %d: batch names %s, exported %s"
                  % (prof, k, names, fn_runs(own)))


def check_pprof(decoded, doc, tables, screens):
    p = parse_text(open(decoded, encoding="utf-8").read())
    st = p.get("string_table", [])
    check(st and st[0] == "", "string_table[0] is not the empty string")
    s = lambda i: st[i] if 0 <= i < len(st) else None
    have_work = doc["functions"] and doc["functions"][0]["work"] is not None
    types = [(s(one(t, "type")), s(one(t, "unit"))) for t in p.get("sample_type", [])]
    want_types = [("executions", "count")] + ([("work", "cost")] if have_work else [])
    check(types == want_types, "sample types %s, want %s" % (types, want_types))
    check(s(one(p, "default_sample_type")) == ("work" if have_work else "executions"),
          "default_sample_type is %s" % s(one(p, "default_sample_type")))
    pt = p.get("period_type", [{}])[0]
    check((s(one(pt, "type")), s(one(pt, "unit"))) == ("executions", "count"),
          "period_type is not executions/count")
    check(one(p, "period") == 1, "period is not 1")
    run = doc["run"]
    check(one(p, "time_nanos") == run["start_ns"], "time_nanos %d, run.start_ns %s"
          % (one(p, "time_nanos"), run["start_ns"]))
    check(one(p, "duration_nanos") == run["taken_ns"] - run["start_ns"],
          "duration_nanos is not taken_ns - start_ns")
    comments = [s(c) for c in p.get("comment", [])]
    check("osp profile of " + run["program"] in comments, "no comment naming the program")
    check("pid: %d" % run["pid"] in comments, "no comment with the pid: %s" % comments)
    check("OSP_OPTIONS=" + run["options"] in comments, "no comment with OSP_OPTIONS")
    maps = p.get("mapping", [])
    check(len(maps) == 1 and one(maps[0], "id") == 1 and s(one(maps[0], "filename")) == run["program"]
          and one(maps[0], "has_functions", False) and one(maps[0], "has_line_numbers", False),
          "not one mapping of the program with functions and lines")

    funcs = {}
    for f in p.get("function", []):
        fid = one(f, "id")
        check(fid not in funcs, "function id %d twice" % fid)
        funcs[fid] = f
        jf = doc["functions"][fid - 1] if 0 < fid <= len(doc["functions"]) else None
        if jf is None:
            check(False, "function id %d is no function of the view" % fid)
            continue
        check(s(one(f, "name")) == jf["name"] and s(one(f, "filename")) == jf["file"]
              and one(f, "start_line") == (jf["first_line"] or 0),
              "function %d: %s %s:%d, --json says %s %s:%s" % (fid, s(one(f, "name")),
              s(one(f, "filename")), one(f, "start_line"), jf["name"], jf["file"], jf["first_line"]))
    locs = {}
    for l in p.get("location", []):
        lid = one(l, "id")
        check(lid not in locs, "location id %d twice" % lid)
        check(one(l, "mapping_id") == 1, "location %d: mapping %d" % (lid, one(l, "mapping_id")))
        lines = l.get("line", [])
        check(len(lines) == 1 and one(lines[0], "function_id") in funcs,
              "location %d: not one line of a known function" % lid)
        if lines:
            locs[lid] = (one(lines[0], "function_id") - 1, one(lines[0], "line"))

    rows = expected(doc, screens)
    samples = p.get("sample", [])
    check(len(samples) == len(rows), "%d samples, --json has %d rows" % (len(samples), len(rows)))
    # block index -> [fn, block] as --json writes it: the view's blocks are in function order
    index = {}
    n = 0
    for fi, f in enumerate(doc["functions"]):
        for b in f["blocks"]:
            index[n] = (fi, b["block"])
            n += 1
    values = {}
    for k, (smp, (prof, r, stack)) in enumerate(zip(samples, rows)):
        ids = smp.get("location_id", [])
        got = [index.get(i - 1) for i in reversed(ids)]  # leaf first in the file
        want = [tuple(b) for b in stack]
        check(got == want, "sample %d (%s): blocks root first %s, --json %s" % (k, prof, got[:6], want[:6]))
        for i in ids:
            if i in locs and index.get(i - 1):
                fn, blk = index[i - 1]
                check(locs[i] == (fn, block_line(doc, fn, blk)),
                      "location %d: function/line %s, --json %s" % (i, locs[i], (fn, block_line(doc, fn, blk))))
            else:
                check(False, "sample %d: location %d not in the profile" % (k, i))
        vals = smp.get("value", [])
        want_v = [rnd(r["estimate"])] + ([rnd(r["work"])] if have_work else [])
        check(vals == want_v, "sample %d (%s): values %s, --json %s" % (k, prof, vals, want_v))
        labels = {}
        for lb in smp.get("label", []):
            key = s(one(lb, "key"))
            unit = s(one(lb, "num_unit")) or None
            labels[key] = s(one(lb, "str")) if one(lb, "str") else (one(lb, "num"), unit)
        check(labels.get("profile") == prof, "sample %d: profile label %s" % (k, labels.get("profile")))
        check(labels.get("length") == (len(r["blocks"]), "blocks"), "sample %d: length %s" % (k, labels.get("length")))
        val = run_value(doc, prof, r)
        check(labels.get("value") == val, "sample %d: value label %s, want %s" % (k, labels.get("value"), val))
        if val == "estimate":
            check(labels.get("executions_err95") == (rnd(r["err95"]), "count"),
                  "sample %d: executions_err95 %s, --json err95 %s" % (k, labels.get("executions_err95"), r["err95"]))
            if have_work:
                check(labels.get("work_err95") == (rnd(r["work_err95"]), "cost"),
                      "sample %d: work_err95 %s" % (k, labels.get("work_err95")))
        else:
            check("executions_err95" not in labels, "sample %d: an exact value with an error" % k)
        if prof == "forest":
            check(labels.get("depth") == (r["depth"], "levels"), "sample %d: depth %s" % (k, labels.get("depth")))
        else:
            check(labels.get("rank") == (r["rank"], None), "sample %d: rank %s" % (k, labels.get("rank")))
        if prof != "subpaths":
            check(labels.get("path_id") == str(r["id"]), "sample %d: path_id %s" % (k, labels.get("path_id")))
        values.setdefault(prof, []).append(vals[0] if vals else -1)
    batch_check(doc, rows, tables, screens, lambda k, prof: values[prof][k])
    print("checked %d samples, %d locations, %d functions" % (len(samples), len(locs), len(funcs)))


def check_folded(path, doc, tables, screens, kind):
    lines = open(path, encoding="utf-8").read().split("\n")
    check(lines[-1] == "", "--folded does not end with a newline")
    lines = lines[:-1]
    rows = expected(doc, screens)
    check(len(lines) == len(rows), "%d folded lines, --json has %d rows" % (len(lines), len(rows)))
    counts = {}
    for k, (line, (prof, r, stack)) in enumerate(zip(lines, rows)):
        m = re.match(r"^(.*) (\d+)$", line)
        if not m:
            check(False, "line %d is not 'frame;frame count': %r" % (k, line[:80]))
            continue
        frames = m.group(1).split(";")
        want = [prof] + ["%s (%s:%d)" % (doc["functions"][f]["name"], doc["functions"][f]["file"],
                                          block_line(doc, f, b)) for f, b in stack]
        check(frames == want, "line %d: frames %s, want %s" % (k, frames[:4], want[:4]))
        n = int(m.group(2))
        want_n = rnd(r["work"] if kind == "work" else r["estimate"])
        check(n == want_n, "line %d: count %d, --json %d" % (k, n, want_n))
        counts.setdefault(prof, []).append(n)
    if kind != "work":
        batch_check(doc, rows, tables, screens, lambda k, prof: counts[prof][k])
    print("checked %d folded lines (%s)" % (len(lines), kind))


mode, path, doc, batch, screens = sys.argv[1:6]
doc = json.load(open(doc, encoding="utf-8"))
tables = batch_tables(batch)
screens = screens.split(",")
if mode == "pprof":
    check_pprof(path, doc, tables, screens)
else:
    check_folded(path, doc, tables, screens, sys.argv[6])
for b in bad[:30]:
    print(b)
if len(bad) > 30:
    print("... %d problems" % len(bad))
sys.exit(1 if bad else 0)
