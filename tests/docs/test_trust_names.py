"""The trust room's public names are listed once (irmetrics/trust_names.py): irmetrics.trust exports them,
the package re-exports them on first use, and the package's imports for type checkers name the same."""
import ast
import subprocess
import sys

from repo_paths import ROOT

import irmetrics
from irmetrics.trust_names import NAMES


def type_checking_trust_imports() -> list[str]:
    """The names ``irmetrics/__init__.py`` imports from the trust room under ``if TYPE_CHECKING:``."""
    tree = ast.parse((ROOT / 'irmetrics' / '__init__.py').read_text(encoding='utf-8'))
    blocks = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == 'TYPE_CHECKING']
    assert len(blocks) == 1
    return [alias.asname or alias.name for node in ast.walk(blocks[0]) if isinstance(node, ast.ImportFrom)
            and node.level == 1 and (node.module or '').split('.')[0] == 'trust' for alias in node.names]


def test_the_imports_for_type_checkers_name_the_trust_names_once_each():
    names = type_checking_trust_imports()
    assert sorted(names) == sorted(NAMES) and len(set(names)) == len(names) == 40


def test_the_trust_room_exports_the_names_and_the_package_reexports_them():
    import irmetrics.trust as trust
    assert trust.__all__ == list(NAMES)
    assert all(getattr(irmetrics, name) is getattr(trust, name) for name in NAMES)
    assert set(NAMES) <= set(irmetrics.__all__)


def test_import_irmetrics_imports_the_names_but_not_the_trust_room():
    code = ('import sys, irmetrics; print("irmetrics.trust_names" in sys.modules, "irmetrics.trust" in sys.modules, '
            'irmetrics.kendall_tau.__module__)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ['True', 'False', 'irmetrics.trust.rank_correlation']
