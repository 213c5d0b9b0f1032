"""How a study script owns parts of a committed file (imported, never run): the text between a
README's marker comments `<!-- NAME -->` and `<!-- /NAME -->`, or a whole generated file such as a
study's table.md. A script writes them (`--readme`), or checks them (`--check`): the check prints a
unified diff of what the committed file says against what the data gives now and fails, so a number
typed by hand or left stale after a rerun cannot stay unnoticed (harness/tests/study_readmes.rs runs
every study script's check).
"""
import difflib
import json
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


# A study's machine-readable summary beside its README, which `harness index` reads
# (lab/src/index.rs::STUDY_SUMMARY).
SUMMARY_JSON = "summary.json"


def summary(question, answer, figure):
    """The text of a study's `summary.json`, which `harness index` shows as the study's row: its
    question (one sentence ending in "?"), its answer in one sentence of at most 45 words, and its key
    figure `(name, value, low, high, unit)`, the 95 % interval as the study reports it. A summary out
    of that shape is an error, so a script cannot write one the index would show wrongly."""
    name, value, low, high, unit = figure
    if not question.endswith("?") or "\n" in question:
        raise SystemExit(f"summary.json: the question is not one sentence ending in '?': {question!r}")
    if len(answer.split()) > 45 or "\n" in answer:
        raise SystemExit(f"summary.json: the answer is not one sentence of at most 45 words: {answer!r}")
    if not low <= value <= high:
        raise SystemExit(f"summary.json: {name}: {value} lies outside its interval [{low}, {high}]")
    number = lambda x: float(x) + 0.0  # noqa: E731  (+ 0.0: no "-0.0")
    text = {"question": question, "answer": answer,
            "figure": {"name": name, "value": number(value), "low": number(low), "high": number(high),
                       "unit": unit}}
    return json.dumps(text, indent=2, ensure_ascii=False) + "\n"
