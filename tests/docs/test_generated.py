"""docs/measures.md is generated from the measure definitions and must be regenerated when they change.

Generation runs in a subprocess, so measures that other tests register at run time do not leak in.
"""
import subprocess
import sys

from repo_paths import ROOT

REFERENCE = ROOT / 'docs' / 'measures.md'
REGENERATE = 'python -m irmetrics.docs'


def generated() -> str:
    proc = subprocess.run([sys.executable, '-m', 'irmetrics.docs', '-'], cwd=ROOT, capture_output=True,
                          text=True, encoding='utf-8', timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_measure_reference_is_up_to_date():
    text = generated()
    current = REFERENCE.read_text(encoding='utf-8') if REFERENCE.exists() else ''
    assert current == text, (f'docs/measures.md is out of date with the measure definitions; regenerate it '
                             f'from the repository root with: {REGENERATE}')


def test_reference_has_an_entry_per_measure():
    import irmetrics  # noqa: F401
    from irmetrics.algebra.measure import REGISTRY
    text = generated()
    for definition in REGISTRY.definitions():
        assert f'\n## {definition.name}\n' in text
    for heading in ('**Aliases:**', '**trec_eval:**', '**Providers:**', '**Conventions**', '| parameter |'):
        assert heading in text


def test_check_mode_reports_the_command(tmp_path):
    stale = tmp_path / 'measures.md'
    stale.write_text('# old\n')
    proc = subprocess.run([sys.executable, '-m', 'irmetrics.docs', '--check', str(stale)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1 and REGENERATE in proc.stderr
    assert subprocess.run([sys.executable, '-m', 'irmetrics.docs', str(stale)], timeout=120).returncode == 0
    proc = subprocess.run([sys.executable, '-m', 'irmetrics.docs', '--check', str(stale)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
