"""Run names: stems by default, NAME=PATH on the command line, found by name, path or stem."""
import pytest
from cli_support import run_ok
from repo_paths import ROOT

from irmetrics import InputError
from irmetrics.api.run_names import default_names, find_run, named_runs, split_named, stem


@pytest.mark.parametrize('path, expected', [('examples/run_bm25.txt', 'run_bm25'), ('a.run', 'a'),
                                            ('runs/x.trec.gz', 'x'), ('b.txt.bz2', 'b'), ('plain', 'plain'),
                                            ('dir/run.v2', 'run.v2'), ('.txt', '.txt'), ('dir/', 'dir')])
def test_a_stem_drops_the_compression_suffix_and_one_extension(path, expected):
    assert stem(path) == expected


def test_stems_that_collide_keep_the_paths():
    assert default_names(['a/run.txt', 'b/run.txt']) == ['a/run.txt', 'b/run.txt']
    assert default_names(['a/one.txt', 'b/two.txt']) == ['one', 'two']


def test_name_equals_path_on_the_command_line(tmp_path):
    assert split_named('bm25=examples/run_bm25.txt') == ('bm25', 'examples/run_bm25.txt')
    assert split_named('examples/run_bm25.txt') == (None, 'examples/run_bm25.txt')
    odd = tmp_path / 'a=b.txt'
    odd.write_text('')
    assert split_named(str(odd)) == (None, str(odd))                     # a file whose name holds '='
    assert named_runs(['x=a.txt', 'b/c.txt']) == {'x': 'a.txt', 'c': 'b/c.txt'}
    with pytest.raises(InputError, match="two runs are named 'x'"):
        named_runs(['x=a.txt', 'x=b.txt'])


def test_a_run_is_found_by_name_path_or_stem():
    names, paths = ['run_bm25', 'dense'], [str(ROOT / 'examples' / 'run_bm25.txt'), 'examples/run_dense.txt']
    for given in ('run_bm25', paths[0], 'run_bm25.txt', 'elsewhere/run_bm25.txt'):
        assert find_run(given, names, paths) == 'run_bm25'
    assert find_run('run_dense', names, paths) == 'dense'
    with pytest.raises(InputError, match="unknown baseline 'nope': the runs are 'run_bm25', 'dense'"):
        find_run('nope', names, paths, 'baseline')


def test_the_command_line_names_runs_in_every_output(tmp_path):
    out = run_ok(ROOT, 'examples/qrels.txt', 'BM25=examples/run_bm25.txt', 'examples/run_dense.txt', '-m', 'AP')
    assert out == 'BM25\tAP\t0.4087\nrun_dense\tAP\t0.5396\n'
    out = run_ok(ROOT, 'compare', 'examples/qrels.txt', 'BM25=examples/run_bm25.txt', 'dense=examples/run_dense.txt',
                 '-m', 'AP', '--baseline', 'BM25', '-f', 'csv')
    assert out.splitlines()[2].startswith('dense,AP,') and ',BM25,' in out.splitlines()[2]
