"""Queries on Frama-C's JSON outputs for proofs/prove.sh (one loader for all of them).

    wpjson.py count REPORT KEY      the global count KEY ("total", "valid") of a WP report
    wpjson.py unproved REPORT       the functions with a goal that is not valid, comma-separated
    wpjson.py recovered A B         goals not valid in report A that are valid in report B
    wpjson.py only-unknowns CLASSIFY  exit 0 if every entry of a -report-classify output is an
                                    unknown property status (goals the cache could not
                                    answer), none a warning or another error; else exit 1

A report that cannot be read counts as empty: count and recovered print 0, unproved prints
nothing, only-unknowns exits 1.
"""
import json
import re
import sys


def load(path):
    """A JSON file; WP writes numbers such as '1.' that Python's parser rejects."""
    with open(path) as f:
        return json.loads(re.sub(r"(\d)\.(?=[,}\s\]])", r"\1.0", f.read()))


def functions(path):
    return load(path).get("wp:functions", {})


def proved(entry):
    main = entry.get("wp:main", {})
    return main.get("valid", 0) == main.get("total", 0) > 0


def missing(entry):
    """Goals of a property entry that are not valid."""
    main = entry.get("wp:main", {})
    return main.get("total", 0) - main.get("valid", 0)


def stem(name):
    """A property's name without WP's numeric suffix (_2, _8, ...)."""
    return re.sub(r"_[0-9]+$", "", name)


def goals(fns):
    """(function, property, entry) for every property entry of a report's functions."""
    for f, props in fns.items():
        for k, v in props.items():
            if k != "wp:section":
                yield f, k, v


def main(argv):
    cmd, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    try:
        if cmd == "count":
            print(load(args[0]).get("wp:global", {}).get("wp:main", {}).get(args[1], 0))
        elif cmd == "unproved":
            fns = functions(args[0])
            bad = {f for f, _, v in goals(fns)
                   if v.get("wp:main", {}).get("valid", 0) != v.get("wp:main", {}).get("total", 0)}
            print(",".join(sorted(bad)))
        elif cmd == "recovered":
            # goals, not properties: a property (e.g. a loop invariant) may hold several.
            # Properties are matched by name without WP's numeric suffix, which depends on
            # the functions a run covers (a call's requires_valid_x_8 in the whole file is
            # requires_valid_x_2 in a pass 2 limited to some functions): a goal counts when
            # every property of that name and function is proved in B.
            a, b = functions(args[0]), functions(args[1])
            ok = {}
            for f, k, v in goals(b):
                ok[(f, stem(k))] = ok.get((f, stem(k)), True) and proved(v)
            print(sum(missing(v) for f, k, v in goals(a)
                      if not proved(v) and ok.get((f, stem(k)), False)))
        elif cmd == "only-unknowns":
            d = load(args[0])
            return 0 if d and all(e.get("classid") == "unclassified.unknown" for e in d) else 1
        else:
            return 2
    except Exception:  # a report that cannot be read or has another shape counts as empty
        if cmd in ("count", "recovered"):
            print(0)
        return 1 if cmd == "only-unknowns" else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
