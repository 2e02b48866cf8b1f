#!/usr/bin/env python3
"""No function under judge/src is longer than 60 lines of body.

A function here is a definition at namespace or class scope: a statement
indented by at most two spaces that ends in "{" after a closing parenthesis
and is not a control statement, a lambda or an initializer. Its body runs to
the matching brace (the braces of string and character literals and of
comments are counted too, which the code's style keeps rare). Long functions
are split into steps a reader can follow (docs/architecture.md).

Usage: function_length_test.py SOURCE_DIR
"""
import os
import re
import sys

LIMIT = 60
NOT_A_FUNCTION = re.compile(
    r"(if|for|while|switch|else|do|try|catch|namespace|struct|class|enum|union|return|case)\b|[}\[]|.*=\s*\[|.*\]\s*\(")


def long_functions(path, text, limit=LIMIT):
    """(body lines, file, line, signature) of each function longer than `limit`."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if not (stripped.endswith("{") and ")" in stripped):
            i += 1
            continue
        start = i  # the statement's first line
        while start > 0:
            before = lines[start - 1].strip()
            if before == "" or before.endswith((";", "{", "}")) or before.startswith(("//", "#", "template")):
                break
            start -= 1
        head = lines[start]
        indent = len(head) - len(head.lstrip())
        signature = head.strip()
        if (indent > 2 or NOT_A_FUNCTION.match(signature) or "(" not in "".join(lines[start:i + 1])
                or "=" in signature.split("(")[0]):
            i += 1
            continue
        depth = 0
        end = i
        for end in range(i, len(lines)):
            depth += lines[end].count("{") - lines[end].count("}")
            if depth <= 0:
                break
        body = end - i - 1
        if body > limit:
            found.append((body, path, start + 1, signature[:100]))
        i = end + 1
    return found


def self_test():
    short = "int f(int x) {\n" + "  x++;\n" * 60 + "}\n"
    long = "int f(int x) {\n" + "  x++;\n" * 61 + "}\n"
    split = "std::vector<int> g(const std::vector<int>& a,\n                   int b) {\n" + "  b++;\n" * 61 + "}\n"
    member = "class A {\n public:\n  void m() const {\n" + "    n();\n" * 61 + "  }\n};\n"
    control = "void h() {\n  if (x) {\n" + "    y();\n" * 30 + "  }\n  for (;;) {\n" + "    y();\n" * 20 + "  }\n}\n"
    assert long_functions("a.cpp", short) == [], "60 lines is allowed"
    assert [f[0] for f in long_functions("a.cpp", long)] == [61], "61 lines is reported"
    assert [f[2] for f in long_functions("a.cpp", split)] == [1], "a signature over two lines"
    assert [f[0] for f in long_functions("a.cpp", member)] == [61], "a member function"
    assert [f[0] for f in long_functions("a.cpp", control, limit=50)] == [54], "blocks inside count toward their function"


def main():
    self_test()  # the rule itself first, so that this test can fail
    root = os.path.join(sys.argv[1], "judge", "src")
    found, files = [], 0
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith((".cpp", ".hpp")):
                files += 1
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as source:
                    found += long_functions(os.path.relpath(path, sys.argv[1]), source.read())
    if files < 50:
        print(f"only {files} files under {root}", file=sys.stderr)
        return 1
    for body, path, line, signature in sorted(found, reverse=True):
        print(f"{path}:{line}: {body} lines (more than {LIMIT}): {signature}", file=sys.stderr)
    if found:
        return 1
    print(f"{files} files, no function over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
