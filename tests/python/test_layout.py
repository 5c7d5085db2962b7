"""The ctypes mirrors of nsmech's public structs match the C compiler's layout: a C probe,
compiled against include/ here, prints sizeof and every field's offsetof and sizeof."""
import ctypes
import os
import shutil
import subprocess
import tempfile
import unittest

from nsmech import _lib

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
CC = os.environ.get("CC") or "cc"


def probe_source():
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "nsmech.h"',
             "int main(void)", "{"]
    for st in _lib.STRUCTS:
        t = st.C_NAME
        lines.append(f'    printf("{t} sizeof %zu\\n", sizeof({t}));')
        for name, _ in st._fields_:
            lines.append(f'    printf("{t}.{name} %zu %zu\\n", offsetof({t}, {name}), '
                         f'sizeof((({t} *)0)->{name}));')
    # the enums the mirrors hold as int
    for e in ("nsm_status", "nsm_policy_kind", "nsm_mu_mode", "nsm_unit_case"):
        lines.append(f'    printf("{e} sizeof %zu\\n", sizeof({e}));')
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


def python_layout():
    out = {}
    for st in _lib.STRUCTS:
        t = st.C_NAME
        out[f"{t} sizeof"] = str(ctypes.sizeof(st))
        for name, ctype in st._fields_:
            out[f"{t}.{name}"] = f"{getattr(st, name).offset} {ctypes.sizeof(ctype)}"
    for e in ("nsm_status", "nsm_policy_kind", "nsm_mu_mode", "nsm_unit_case"):
        out[f"{e} sizeof"] = str(ctypes.sizeof(ctypes.c_int))
    return out


class Layout(unittest.TestCase):
    def test_structs_match_c(self):
        if shutil.which(CC) is None:
            self.fail(f"no C compiler {CC!r} for the layout probe (set CC)")
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "probe.c")
            exe = os.path.join(tmp, "probe")
            with open(src, "w") as f:
                f.write(probe_source())
            subprocess.run([CC, "-std=c11", "-I", os.path.join(ROOT, "include"), src, "-o", exe],
                           check=True, capture_output=True)
            text = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
        c = {}
        for line in text.splitlines():
            key, _, val = line.partition(" ")
            if val.startswith("sizeof "):
                key, val = f"{key} sizeof", val[len("sizeof "):]
            c[key] = val
        py = python_layout()
        self.assertEqual(sorted(c), sorted(py))
        bad = {k: (c[k], py[k]) for k in c if c[k] != py[k]}
        self.assertEqual(bad, {}, "C (offset size) against ctypes")

    def test_status_names(self):
        """The status table follows the enum: nsm_status_str of each code is distinct, and
        the one past the last is the library's unknown-status text."""
        texts = [_lib.lib.nsm_status_str(i).decode() for i in range(len(_lib.STATUS_NAMES) + 1)]
        self.assertEqual(len(set(texts)), len(texts))


if __name__ == "__main__":
    unittest.main()
