"""How a study script owns parts of a committed file (imported, never run): the text between a
README's marker comments `<!-- NAME -->` and `<!-- /NAME -->`, or a whole generated file such as a
study's table.md. A script writes them (`--readme`), or checks them (`--check`): the check prints a
unified diff of what the committed file says against what the data gives now and fails, so a number
typed by hand or left stale after a rerun cannot stay unnoticed (harness/tests/study_readmes.rs runs
every study script's check).
"""
import difflib
import sys
from pathlib import Path


def replace_blocks(text, blocks, where):
    """`text` with each NAME's block replaced by `blocks[NAME]` (a string, no markers); a block
    whose markers are missing is an error naming the file."""
    for name, body in blocks.items():
        begin, end = f"<!-- {name} -->", f"<!-- /{name} -->"
        if text.count(begin) != 1 or text.count(end) != 1:
            raise SystemExit(f"{where}: expected one `{begin}` and one `{end}`")
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = f"{head}{begin}\n{body}\n{end}{tail}"
    return text


def differs(path, wanted):
    """Prints the diff of the committed `path` against `wanted` (on stderr); True when they differ."""
    have = Path(path).read_text() if Path(path).exists() else ""
    if have == wanted:
        return False
    diff = difflib.unified_diff(have.splitlines(True), wanted.splitlines(True),
                                f"{path} (committed)", f"{path} (from the data now)")
    sys.stderr.write("".join(diff))
    return True


def sync(files, check):
    """Writes or checks several files at once. `files` maps a path to `(blocks, None)` — marker
    blocks to replace in it — or `(None, text)`, the whole file. With `check`, nothing is written
    and the process exits 1 after every diff is printed when any file differs."""
    stale = []
    for path, (blocks, whole) in files.items():
        path = Path(path)
        wanted = whole if blocks is None else replace_blocks(path.read_text(), blocks, path)
        if check:
            if differs(path, wanted):
                stale.append(str(path))
        else:
            path.write_text(wanted)
    if stale:
        sys.stderr.write("stale (the data says otherwise): " + ", ".join(stale)
                         + "\nrewrite with the same script and --readme\n")
        sys.exit(1)
