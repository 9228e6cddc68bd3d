"""Shared plumbing of the definition generators: write generated files, or check them."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def emit(outputs, check):
    """outputs: {path: text}. With check, fail naming every stale file; else write them."""
    stale = []
    for path, text in outputs.items():
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path.relative_to(ROOT)))
        else:
            path.write_text(text)
    if stale:
        sys.exit("stale generated files (run `make gen`): " + ", ".join(stale))


def camel(name):
    return "".join(p.capitalize() for p in name.lower().split("_"))
