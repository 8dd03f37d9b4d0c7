"""Reading trec_eval's preference and judgment-group files (``-R prefs``, ``qrels_prefs``, ``qrels_jg``).

The lines are split as every TREC file is (:mod:`.format`: white space, comments, blank lines, NUL bytes,
UTF-8), with the field counts of get_prefs.c (5 fields), get_qrels_prefs.c and get_qrels_jg.c (4); a
``rel_level`` is a number as C's strtod reads it (trec_eval's atof would read ``2x`` as 2 and ``x`` as
0: irmetrics refuses both, naming the line), and a qrels_jg grade an integer, as in qrels.
"""
from __future__ import annotations

import os

from .. import ids
from ..prefs import PREFERENCE_FORMATS, JudgmentGroups, Preferences, row_columns
from .format import QRELS, Layout
from .reader import load, parse

PREFS = Layout('prefs', ('query_id', 'jg', 'jsg', 'doc_id', 'rel_level'),
               ('query_id', 'jg', 'jsg', 'doc_id', 'rel_level'), ('rel_level',), (), ('query_id', 'jg', 'jsg'),
               False)
QRELS_PREFS = Layout('qrels', ('query_id', 'jg', 'doc_id', 'rel_level'), ('query_id', 'jg', 'doc_id', 'rel_level'),
                     ('rel_level',), (), ('query_id', 'jg'), False)


def read_trec_prefs(source: str | os.PathLike[str] | bytes, *, format: str = 'prefs') -> Preferences:
    """Read preference judgments: trec_eval's ``prefs`` file (``query_id jg jsg doc_id rel_level``), or,
    with ``format='qrels_prefs'``, a qrels file read as preferences (the iteration column is the judgment
    group, one sub-group each; the grade is the level).

    Parameters
    ----------
    source : str, os.PathLike or bytes
        A path (plain or compressed), or the file's text or bytes.
    format : str
        ``'prefs'`` or ``'qrels_prefs'`` (trec_eval's ``-R``).

    Returns
    -------
    Preferences
        The judgments, which :func:`irmetrics.calc` evaluates with the preference measures.

    Raises
    ------
    InputError
        For a malformed line, a level that is not a number of 0 or more, or preferences that contradict
        each other within a judgment group; the message names the line.

    Examples
    --------
    >>> prefs = irmetrics.read_trec_prefs('examples/prefs.txt')
    >>> prefs
    <Preferences examples/prefs.txt (prefs): 2 queries, 13 judgments>
    """
    if format not in PREFERENCE_FORMATS:
        raise ValueError(f'format {format!r}: expected one of {", ".join(PREFERENCE_FORMATS)}')
    data, name = load(source)
    cols, lines = parse(data, name, PREFS if format == 'prefs' else QRELS_PREFS)
    qids, jgs, docs = row_columns(cols, ('query_id', 'jg', 'doc_id'))
    jsgs = row_columns(cols, ('jsg',))[0] if format == 'prefs' else ids.repeat('0', len(qids))
    return Preferences.from_columns(qids, jgs, jsgs, docs, cols['rel_level'], lines=lines(), format=format,  # type: ignore[arg-type]
                                    source=name)


def read_trec_qrels_jg(source: str | os.PathLike[str] | bytes) -> JudgmentGroups:
    """Read judgment groups: a qrels file whose iteration column names the judgment group (one assessor's
    set of judgments), trec_eval's ``qrels_jg`` format.

    Parameters
    ----------
    source : str, os.PathLike or bytes
        A path (plain or compressed), or the file's text or bytes.

    Returns
    -------
    JudgmentGroups
        The groups, which :func:`irmetrics.calc` evaluates with ``P_avgjg``, ``AP_avgjg`` and ``Rprec_avgjg``.

    Raises
    ------
    InputError
        For a malformed line; a document judged twice in one group (a DuplicateError) names both lines.

    Examples
    --------
    >>> irmetrics.read_trec_qrels_jg('examples/qrels_jg.txt')
    <JudgmentGroups examples/qrels_jg.txt: 2 queries, 3 judgment groups>
    """
    data, name = load(source)
    cols, lines = parse(data, name, QRELS)
    qids, jgs, docs = (c.to_list() for c in row_columns(cols, ('query_id', 'iteration', 'doc_id')))
    return JudgmentGroups.from_columns(qids, jgs, docs, cols['relevance'], lines=lines(), source=name)  # type: ignore[arg-type]
