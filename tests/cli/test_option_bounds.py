"""Every number an option of the command line takes is bounded before use: an integer beyond what numpy's
int64 holds is one error line (exit status 2) where the option is read, and one it holds (2**63 - 1, or its
negative) either works or is one error line from the function the command calls, never a traceback.  The
options are found in the commands' parsers, so that an option added later is walked too."""

import pytest
from cli_support import assert_user_error, irmetrics, warnings_only
from repo_paths import EXAMPLES

from irmetrics.cli import args as grammar

#: Each command's arguments, the integer options left out (each is added, and the last one given counts).
COMMANDS = {
    'evaluate': ['qrels', 'a.run', '-m', 'AP'],
    'compare': ['compare', 'qrels', 'a.run', 'b.run', '-m', 'AP'],
    'gate': ['gate', 'qrels', 'a.run', '--against', 'stored.json'],
    'ties': ['ties', 'qrels', 'a.run', '-m', 'AP'],
    'agree': ['agree', '--runs', 'a.run', 'b.run'],
    'kappa': ['kappa', 'qrels', 'qrels'],
    'judges': ['judges', 'qrels', 'qrels', 'a.run', 'b.run', 'c=a.run', '--resamples', '20'],
    'pool': ['pool', 'a.run', 'b.run', '--depth', '3'],
    'fuse': ['fuse', 'a.run', 'b.run'],
    'qrels-stats': ['qrels-stats', 'qrels'],
    'judged': ['judged', 'qrels', 'a.run'],
    'unjudged': ['unjudged', 'qrels', 'a.run', '-m', 'AP'],
    'discriminate': ['discriminate', 'qrels', 'a.run', 'b.run', '-m', 'AP', '--resamples', '20'],
    'swap-rates': ['swap-rates', 'qrels', 'a.run', 'b.run', '-m', 'AP', '--trials', '5'],
    'rag': ['rag', str(EXAMPLES / 'rag' / 'nuggets.jsonl'), str(EXAMPLES / 'rag' / 'assignments.jsonl'), '-m', 'all',
            '--compare', '--resamples', '20'],
    'reproduce': ['reproduce', 'qrels', '--original', 'a.run', 'b.run', '--reproduced', 'b.run', 'a.run', '-m', 'AP'],
}

def integer_options() -> list[tuple[str, str]]:
    """(command, option) of every option of every command's parser that takes an integer."""
    found = []
    for command, build in grammar.PARSERS.items():
        for action in build()._actions:
            assert action.type is not int, (command, action.option_strings)         # unbounded
            if action.type in (grammar.integer, grammar.places, grammar.seed, grammar.level):
                found.append((command, max(action.option_strings, key=len)))
    return found


def test_every_command_with_an_integer_option_is_walked():
    commands = {command for command, _ in integer_options()}
    assert commands == set(COMMANDS) and len(integer_options()) >= 20, integer_options()


@pytest.fixture
def inputs(here):
    (here / 'stored.json').write_text(irmetrics('qrels', 'a.run', '-m', 'AP', '-q', '-f', 'json', cwd=here).stdout)
    return here


@pytest.mark.parametrize('command, option', integer_options())
def test_an_integer_beyond_int64_is_one_error_line(inputs, command, option):
    for value in (str(2 ** 128), str(-2 ** 63), '9' * 400):       # (a seed takes up to 2**128 - 1)
        line = assert_user_error(irmetrics(*COMMANDS[command], f'{option}={value}', cwd=inputs), 'argument ')
        assert any(p in line for p in ('is too large', 'is not a number of places', 'is not a seed')), line
    if option != '--seed':
        assert_user_error(irmetrics(*COMMANDS[command], f'{option}={2 ** 63}', cwd=inputs), 'is ')


@pytest.mark.parametrize('command, option', integer_options())
def test_an_integer_int64_holds_works_or_is_one_error_line(inputs, command, option):
    for value in (str(2 ** 63 - 1), str(-2 ** 63 + 1), '0', str(2 ** 128 - 1)):
        done = irmetrics(*COMMANDS[command], f'{option}={value}', cwd=inputs)
        assert 'Traceback' not in done.stderr, done.stderr
        if done.returncode != 0:                 # one error line, after the warnings of the work done before
            *warned, error = done.stderr.splitlines()
            assert done.returncode == 2 and error.startswith('irmetrics: error: '), done.stderr
            warnings_only('\n'.join(warned))


@pytest.mark.parametrize('value', [str(2 ** 63), '9' * 400])
def test_a_memory_limit_beyond_int64_is_one_error_line(here, value):
    assert_user_error(irmetrics('qrels', 'a.run', '-m', 'AP', '--memory-limit', value, cwd=here), 'is too large')


def test_the_three_reported_cases(here):
    """A cutoff of 2**63 (an OverflowError), places of 2**63 (a format string's ValueError) and judged's -k."""
    big = str(2 ** 63)
    assert_user_error(irmetrics('qrels', 'a.run', f'Judged@{big}', cwd=here),
                      "invalid value 9223372036854775808 for parameter 'cutoff'", 'at most 2**63 - 1')
    assert_user_error(irmetrics('qrels', 'a.run', 'AP', '-p', big, cwd=here), 'argument -p/--places', 'too large')
    assert_user_error(irmetrics('judged', 'qrels', 'a.run', '-k', big, cwd=here), 'argument -k/--cutoff', 'too large')
    assert_user_error(irmetrics('qrels', 'a.run', 'AP', '-p', '18', cwd=here), '0 to 17, or -1 for every digit')
