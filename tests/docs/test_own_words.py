"""The repository says what its code does in its own words: no numbers of a work tracker a reader of it does not
have (the word issue and a number), in the code, the tests, the docs, the benchmarks or the changelog."""
import re

from repo_paths import ROOT

TRACKER_NUMBER = re.compile(r'\bissues? ?#?[0-9]+', re.IGNORECASE)
TEXT = ('.py', '.md', '.toml', '.yml', '.yaml', '.cfg', '.txt', '.sh')


def project_files():
    top = [p for p in ROOT.iterdir() if p.is_file() and p.suffix in TEXT]
    rooms = [p for room in ('irmetrics', 'tests', 'docs', 'benchmarks', 'fuzz', 'examples', '.ci')
             if (ROOT / room).is_dir() for p in (ROOT / room).rglob('*') if p.is_file() and p.suffix in TEXT]
    return top + rooms


def test_no_tracker_numbers():
    files = project_files()
    assert len(files) > 300
    found = [f'{path.relative_to(ROOT)}:{number}: {line.strip()}' for path in files
             for number, line in enumerate(path.read_text(encoding='utf-8', errors='replace').splitlines(), 1)
             if TRACKER_NUMBER.search(line)]
    assert found == []
