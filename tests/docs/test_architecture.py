"""The rooms of docs/architecture.md and the arrows between them, checked against the code.

The table "Which room may import which" in docs/architecture.md is read here; every import between
two rooms of the package (module level, inside functions and under ``TYPE_CHECKING`` alike) must be
one the table allows, and no two rooms may import each other.
"""
import ast
import re

from repo_paths import ROOT

PACKAGE = ROOT / 'irmetrics'
DOC = ROOT / 'docs' / 'architecture.md'


def allowed_arrows() -> dict[str, set[str]]:
    """The doc's table: room -> the rooms it may import."""
    text = DOC.read_text(encoding='utf-8')
    table = text.split('<!-- rooms -->')[1]
    allowed = {}
    for room, targets in re.findall(r'^\| `([\w.]+)` \|([^|]*)\|', table, re.MULTILINE):
        allowed[room] = set(re.findall(r'`([\w.]+)`', targets))
    return allowed


def room_of(module: str) -> str:
    """``irmetrics.api.calc`` -> ``api``; the package itself (its ``__init__``) is the room ``irmetrics``."""
    parts = module.split('.')
    if len(parts) == 1 or not ((PACKAGE / parts[1]).is_dir() or (PACKAGE / f'{parts[1]}.py').exists()):
        return 'irmetrics'
    return parts[1]


def imported_modules(path) -> set[str]:
    """Every irmetrics module or name ``path`` imports, wherever the import statement stands."""
    parts = list(path.relative_to(ROOT).with_suffix('').parts)
    package = parts[:-1] if parts[-1] != '__init__' else parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                anchor = package[:len(package) - (node.level - 1)]
                base = '.'.join(anchor + ([base] if base else []))
            found |= {f'{base}.{a.name}' for a in node.names} if base == 'irmetrics' else {base}
    return {m for m in found if m == 'irmetrics' or m.startswith('irmetrics.')}


def arrows() -> dict[tuple[str, str], set[str]]:
    """(importing room, imported room) -> the importing modules."""
    out: dict[tuple[str, str], set[str]] = {}
    for path in PACKAGE.rglob('*.py'):
        parts = path.relative_to(ROOT).with_suffix('').parts
        me = '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)
        for target in imported_modules(path):
            pair = (room_of(me), room_of(target))
            if pair[0] != pair[1]:
                out.setdefault(pair, set()).add(me)
    return out


def test_the_table_names_every_room_of_the_package():
    rooms = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / '__init__.py').exists()}
    rooms |= {p.stem for p in PACKAGE.glob('*.py') if p.stem not in ('__init__', '__main__')}
    assert rooms | {'irmetrics', '__main__'} == set(allowed_arrows())


def test_every_import_between_rooms_is_one_the_table_allows():
    allowed = allowed_arrows()
    assert len(arrows()) > 40 and len(allowed) > 12              # the code and the table were both read
    wrong = {f'{a} -> {b} ({", ".join(sorted(who))})' for (a, b), who in arrows().items() if b not in allowed[a]}
    assert not wrong


def test_no_two_rooms_import_each_other():
    found = arrows()
    both = {tuple(sorted(pair)) for pair in found if pair[::-1] in found}
    assert both == EXCEPTIONS


#: The one pair allowed both ways, and why (docs/architecture.md says so too): ``Measure``'s four
#: conveniences (``nDCG@10 .calc_aggregate(qrels, run)``) call the public package when called, as
#: ir_measures' measures do; the package re-exports the algebra.
EXCEPTIONS = {('algebra', 'irmetrics')}


def test_every_module_is_named_in_the_architecture_page():
    """docs/architecture.md names every module of the package (by its file name)."""
    page = (ROOT / 'docs' / 'architecture.md').read_text(encoding='utf-8')
    modules = [p for p in (ROOT / 'irmetrics').rglob('*.py') if p.name != '__init__.py']
    assert len(modules) > 150
    unnamed = sorted(str(p.relative_to(ROOT)) for p in modules
                     if not re.search(rf'(?<![\w.]){re.escape(p.name)}', page))
    assert unnamed == []


#: The modules of the comparing room another room may import: the package and its door for the trust room.
COMPARING_DOORS = {'irmetrics.comparing', 'irmetrics.comparing.toolkit'}


def test_the_trust_room_enters_the_comparing_room_by_its_doors_only():
    """trust/ imports comparing/ through ``irmetrics.comparing`` and ``comparing/toolkit.py``, never a module
    behind them, so that the comparing room may reorganise its modules without touching trust/."""
    trust = sorted((PACKAGE / 'trust').rglob('*.py'))
    imported = {(path.name, m) for path in trust for m in imported_modules(path) if room_of(m) == 'comparing'}
    assert len(imported) >= 7                                      # the trust room's imports were read
    assert {f'{name}: {m}' for name, m in imported if m not in COMPARING_DOORS} == set()
