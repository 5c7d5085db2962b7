"""nsmech's results equal the nsm program's to the last bit on examples/problems/*.json.

The program prints doubles with cJSON 1.7, which does not always print the last bits: a
whole number in int range as %d, else %1.15g when that reads back to within one DBL_EPSILON
relative (compare_double), else %1.17g. Each double of the package's result is printed by the
same rule (cjson_number) and must give the program's number exactly: the doubles are the same
wherever the program's text determines them, and 17 digits determine a double."""
import glob
import json
import os
import subprocess
import unittest

import numpy as np

import nsmech

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
NSM = os.environ.get("NSM_BIN", os.path.join(ROOT, "build", "nsm"))
PROBLEMS = sorted(glob.glob(os.path.join(ROOT, "examples", "problems", "*.json")))


DBL_EPSILON = np.finfo(float).eps
INT_MAX, INT_MIN = 2**31 - 1, -2**31


def cjson_number(d):
    """The double the program's JSON text of d reads back as (cJSON 1.7.15 print_number)."""
    d = float(d)
    if not np.isfinite(d):
        return float("nan")
    valueint = INT_MAX if d >= INT_MAX else INT_MIN if d <= INT_MIN else int(d)
    if d == float(valueint):
        return float(valueint)
    t = float("%1.15g" % d)
    if abs(t - d) <= max(abs(t), abs(d)) * DBL_EPSILON:
        return t
    return float("%1.17g" % d)


def as_columns(outcomes):
    """The program's list of outcome objects as the package's columns."""
    keys = outcomes[0].keys() if outcomes else []
    return {k: [o[k] for o in outcomes] for k in keys}


def same(test, path, cli, py):
    """cli (parsed JSON) and py (the package's result) are equal, value for value."""
    if isinstance(cli, dict):
        test.assertIsInstance(py, dict, path)
        test.assertEqual(sorted(cli), sorted(py), f"{path}: fields")
        for key in cli:
            c = as_columns(cli[key]) if key == "outcomes" else cli[key]
            same(test, f"{path}.{key}", c, py[key])
    elif isinstance(cli, list) and cli and isinstance(cli[0], dict):
        test.assertEqual(len(cli), len(py), path)
        for i, (c, p) in enumerate(zip(cli, py)):
            same(test, f"{path}[{i}]", c, p)
    elif isinstance(cli, list) and cli and isinstance(cli[0], str):
        test.assertEqual(cli, [str(x) for x in py], path)
    elif isinstance(cli, (list, float, int)) and not isinstance(cli, bool):
        c = np.array(cli, dtype=float)
        p = np.vectorize(cjson_number, otypes=[float])(np.asarray(py, dtype=float))
        if c.size == 0:
            test.assertEqual(p.size, 0, path)
            return
        test.assertEqual(c.shape, p.shape, f"{path}: shape")
        bad = np.flatnonzero(~(c == p).ravel())
        test.assertEqual(bad.size, 0, f"{path}: {bad.size} entries differ, first at flat index "
                         f"{bad[:1]}: {c.ravel()[bad[:1]]} != {p.ravel()[bad[:1]]}")
    else:
        test.assertEqual(cli, py, path)


class CliEquality(unittest.TestCase):
    def test_problems_equal_cli(self):
        self.assertTrue(PROBLEMS, "no examples/problems/*.json")
        for path in PROBLEMS:
            name = os.path.basename(path)
            with self.subTest(problem=name):
                with open(path) as f:
                    problem = json.load(f)
                cmd = "impact" if "Jn" in problem else "dynamics"
                run = subprocess.run([NSM, cmd, path], capture_output=True, text=True,
                                     check=True)
                same(self, name, json.loads(run.stdout), nsmech.run(problem))

    def test_set_in_rounds_equals_cli(self):
        """docs/cli.md "hull_tol": the package stops the sampled families where the program
        does (nsm_outcome_next), so both make the same, fewer, runs."""
        import tempfile
        with open(os.path.join(ROOT, "examples", "problems", "impact_box_corner_set.json")) as f:
            problem = json.load(f)
        full = nsmech.run(problem)["runs"]
        problem["hull_tol"] = 0.5
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(problem, f)
        try:
            run = subprocess.run([NSM, "impact", f.name], capture_output=True, text=True,
                                 check=True)
        finally:
            os.unlink(f.name)
        py = nsmech.run(problem)
        self.assertLess(py["runs"], full)
        same(self, "hull_tol 0.5", json.loads(run.stdout), py)
        problem["hull_tol"] = 2.0
        with self.assertRaises(nsmech.Error):
            nsmech.run(problem)


if __name__ == "__main__":
    unittest.main()
