#!/usr/bin/env bash
# The rules of docs/architecture.md ("Rules that keep it readable") that a
# machine can check, checked on the source tree (not on the executable; the
# two arguments ctest passes are unused):
#   size       no file under src/ or include/ over 500 lines;
#   options    no option wording ("--name" in a C++ string literal) outside cli;
#   includes   a module includes only itself and the modules its
#              tdcone_module(... DEPENDS ...) line in CMakeLists.txt lists;
#   namespaces a module's code is in namespace tdcone::MODULE (core: tdcone).
# Each offence is printed as FILE:LINE: RULE: what; any offence fails (exit 1).
# Also printed, as a warning that does not fail: the source files with logic
# that have no test file named after them (tests/unit or tests/mpi
# MODULE_FILE_test.cpp).
# Usage: tree_rules.sh [TDCONE BUILD_DIR]   (run from anywhere)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Debian's python3 (standard library only): a pyenv python3 may come first on PATH.
exec /usr/bin/python3 - "$ROOT" <<'PY'
import os
import re
import sys
from collections import Counter

root = sys.argv[1]
os.chdir(root)
MAX_LINES = 500
offences = []  # (path, line, rule, message)


def offend(path, line, rule, message):
    offences.append((path, line, rule, message))


def source_files():
    """Every file under src/ and include/, sorted, as paths relative to root."""
    for top in ("src", "include"):
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for name in sorted(filenames):
                yield os.path.join(dirpath, name)


def module_of(path):
    """src/M/... and include/tdcone/M/... belong to module M; anything else
    (src/main.cpp, the program) to none."""
    parts = path.split(os.sep)
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if parts[:2] == ["include", "tdcone"] and len(parts) > 3:
        return parts[2]
    return None


def lex(text):
    """Splits C++ source into code and string literals. Returns (code,
    literals): code is the text with comments and literals blanked (newlines
    kept, so offsets keep their line numbers); literals is a list of
    (offset, contents). Knows raw strings, character literals and digit
    separators (1'000)."""
    code = list(text)
    literals = []
    i, n = 0, len(text)

    def blank(a, b):
        for k in range(a, b):
            if code[k] != "\n":
                code[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            # A pp-number, whose ' are digit separators, not character literals.
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in "._'" or
                             (text[j] in "+-" and text[j - 1] in "eEpP")):
                j += 1
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            if j < n and text[j] == '"' and word in ("R", "u8R", "uR", "UR", "LR"):
                m = re.compile(r'"([^()\\ \s]{0,16})\(').match(text, j)
                if m:
                    end = text.find(")" + m.group(1) + '"', m.end())
                    end = n if end < 0 else end
                    literals.append((m.end(), text[m.end():end]))
                    stop = min(n, end + len(m.group(1)) + 2)
                    blank(j, stop)
                    i = stop
                    continue
            i = j  # an identifier, or a prefix (u8, L, ...) of the literal that follows
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                literals.append((i + 1, text[i + 1:j]))
            blank(i, min(j + 1, n))
            i = j + 1
        else:
            i += 1
    return "".join(code), literals


def line_at(text, offset):
    return text.count("\n", 0, offset) + 1


# ---- the modules and their edges, from CMakeLists.txt ----
cmake = open("CMakeLists.txt", encoding="utf-8").read()
cmake = re.sub(r"#[^\n]*", "", cmake)
depends = {}
for m in re.finditer(r"^tdcone_module\(([^)]*)\)", cmake, re.M):
    words = m.group(1).split()
    name, deps, keyword = words[0], [], None
    for w in words[1:]:
        if w in ("DEPENDS", "PACKAGES"):
            keyword = w
        elif keyword == "DEPENDS":
            deps.append(w)
    depends[name] = set(deps)
if not depends:
    sys.exit("tree_rules.sh: no tdcone_module(...) line in CMakeLists.txt")

# Option wording is data, not wording, in the schema: its attribute
# descriptions (which say which option set a value, e.g. "--min-count") are
# stored in every result file and in scripts/tdcone_schema.json, where cli
# cannot own them. cli itself owns every option string.
OPTION_EXEMPT = {"cli", "schema"}
OPTION = re.compile(r"--[A-Za-z]")
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]tdcone/([^/">]+)/', re.M)
# Specializations of a library's templates (boost::serialization's serialize,
# std::hash) must be declared in the library's namespace.
FOREIGN_NAMESPACES = {"std", "boost"}
NAMESPACE = re.compile(r"\bnamespace\b[ \t\n]*([A-Za-z_][\w:]*)?[ \t\n]*(\{)|[{}]")

option_hits = Counter()
for path in source_files():
    try:
        text = open(path, encoding="utf-8").read()
    except UnicodeDecodeError:
        offend(path, 1, "encoding", "not UTF-8")
        continue
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines > MAX_LINES:
        offend(path, MAX_LINES + 1, "size", f"{lines} lines, over {MAX_LINES}")
    if not path.endswith((".cpp", ".hpp", ".h", ".cc", ".inc")):
        continue
    module = module_of(path)
    code, literals = lex(text)

    if module not in OPTION_EXEMPT:
        for offset, contents in literals:
            for m in OPTION.finditer(contents):
                word = re.match(r"--[\w-]*", contents[m.start():]).group(0)
                offend(path, line_at(text, offset + m.start()), "options",
                       f'option string "{word}" outside cli')
                option_hits[module or path] += 1

    if module is None:
        continue  # src/main.cpp: the program may include and name anything
    for m in INCLUDE.finditer(text):
        target = m.group(1)
        if target != module and target not in depends.get(module, set()):
            offend(path, line_at(text, m.start(1)), "includes",
                   f"{module} includes tdcone/{target}/, not in its DEPENDS")

    stack = []  # one entry per open brace: the namespace it opens, or None
    for m in NAMESPACE.finditer(code):
        if m.group(0) == "}":
            if stack:
                stack.pop()
            continue
        if m.group(2) is None:
            stack.append(None)  # a brace of something else than a namespace
            continue
        name = m.group(1)
        if name is None:
            stack.append("")  # anonymous namespace: not part of a name
            continue
        outer = [s for s in stack if s]
        full = "::".join(outer + [name])
        stack.append(name)
        parts = full.split("::")
        if parts[0] in FOREIGN_NAMESPACES:
            continue
        if module == "core":
            ok = parts[0] == "tdcone" and (len(parts) == 1 or parts[1] not in depends)
            want = "tdcone"
        else:
            ok = full == f"tdcone::{module}" or full.startswith(f"tdcone::{module}::")
            want = f"tdcone::{module}"
        if not ok:
            offend(path, line_at(code, m.start()), "namespaces",
                   f"namespace {full} in module {module} (want {want})")

# ---- a warning: source files with logic and no test named after them ----
# A file "with logic" has over 30 lines (shorter ones are declarations and
# one-liners). Its test is tests/unit/M_F_test.cpp or tests/mpi/M_F_test.cpp;
# cli's COMMAND_command.cpp may be tested by tests/unit/cli_COMMAND_test.cpp.
untested = []
for path in source_files():
    module = module_of(path)
    if module is None or not path.startswith("src" + os.sep) or not path.endswith(".cpp"):
        continue
    with open(path, encoding="utf-8", errors="replace") as f:
        if sum(1 for _ in f) <= 30:
            continue
    stem = os.path.splitext(os.path.basename(path))[0]
    names = [f"{module}_{stem}_test.cpp"]
    if module == "cli" and stem.endswith("_command"):
        names.append(f"cli_{stem[:-len('_command')]}_test.cpp")
    if not any(os.path.exists(os.path.join("tests", kind, name))
               for kind in ("unit", "mpi") for name in names):
        untested.append(path)
if untested:
    print(f"warning: {len(untested)} source files with logic have no test named after them "
          "(tests/unit or tests/mpi MODULE_FILE_test.cpp):")
    for path in untested:
        print(f"  {path}")

for path, line, rule, message in offences:
    print(f"{path}:{line}: {rule}: {message}")
counts = Counter(rule for _, _, rule, _ in offences)
if option_hits:
    print("option strings outside cli, per module: " +
          ", ".join(f"{m} {c}" for m, c in sorted(option_hits.items())))
for rule in ("size", "options", "includes", "namespaces"):
    print(f"{rule}: {counts.get(rule, 0)} offences")
if offences:
    print(f"FAIL: {len(offences)} offences against the tree rules (docs/architecture.md)")
    sys.exit(1)
print("ok: the tree keeps its rules")
PY
