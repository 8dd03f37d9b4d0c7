"""examples/recommender.py runs as docs/recommenders.md says, and its score matrix and its top-20 array
give the same numbers in the last epoch."""
import subprocess
import sys

from repo_paths import ROOT


def test_the_recommender_example_runs_and_its_two_inputs_agree():
    shown = subprocess.run([sys.executable, str(ROOT / 'examples' / 'recommender.py'), '--users', '300',
                            '--items', '120', '--epochs', '2'], capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].split() == ['measure', 'epoch', '1', 'epoch', '2']
    table = {line.split()[0]: line.split()[1:] for line in lines[1:-1]}
    assert set(table) >= {'nDCG@10', 'R@20', 'ARP@10', 'ILD@10', 'TailShare@10', 'Gini(catalogue=120)@10'}
    last = dict(part.split() for part in lines[-1].split(': ', 1)[1].split(', '))
    assert last == {m: table[m][-1] for m in ('nDCG@10', 'R@20', 'RR@10')}
