"""The measures of RAG answers: nugget scores and citation support, each a :class:`~irmetrics.Measure`.

They are computed from nuggets, assignments and answers, not from rankings, so they live in their own registry
(:data:`RAG_MEASURES`), which :func:`parse_rag_measures` reads: ``irmetrics.calc`` on a run never meets them,
and ``irmetrics.rag.calc`` / ``irmetrics.rag.compare`` take nothing else.  Each value is one topic's, for one
run; the aggregate is the mean over the nuggets' topics.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..algebra.measure import Measure, MeasureDef, MeasureRegistry
from ..algebra.parse import parse_measure, split_measure_list
from ..errors import MeasureError

RAG_MEASURES = MeasureRegistry()

_NUGGETS = ('R. Pradeep, N. Thakur, S. Upadhyay, D. Campos, N. Craswell, J. Lin. Initial Nugget Evaluation Results '
            'for the TREC 2024 RAG Track with the AutoNuggetizer Framework. arXiv:2411.09607, 2024; and The Great '
            'Nugget Recall: Automating Fact Extraction and RAG Evaluation with Large Language Models. SIGIR 2025, '
            'arXiv:2504.15068. Reference implementation: castorini/nuggetizer (calculate_nugget_scores).')
_SUPPORT = ('N. Thakur, R. Pradeep, S. Upadhyay, D. Campos, N. Craswell, J. Lin. Support Evaluation for the TREC '
            '2024 RAG Track: Comparing Human versus LLM Judges. SIGIR 2025, arXiv:2504.15205.')
_NUGGET_NOTES = ('s(n) = 1 for support, 0.5 for partial_support, 0 for not_support; the strict scores count '
                 'support only. A topic without vital nuggets scores 0 on the vital scores, as the nuggetizer '
                 'scores it.')


def _nugget(name: str, summary: str, formula: str) -> Measure:
    return RAG_MEASURES.register(MeasureDef(name=name, params=(), at_param=None, summary=summary, formula=formula,
                                            citation=_NUGGETS, notes=_NUGGET_NOTES, tie_order='irrelevant',
                                            ranks=False))


def _support(name: str, summary: str, formula: str, notes: str) -> Measure:
    return RAG_MEASURES.register(MeasureDef(name=name, params=(), at_param=None, summary=summary, formula=formula,
                                            citation=_SUPPORT, notes=notes, tie_order='irrelevant', ranks=False))


ALL = _nugget('all', "The share of a topic's nuggets the answer supports, partial support worth a half.",
              'all = sum_{n in N} s(n) / |N|')
VITAL = _nugget('vital', "The share of a topic's vital nuggets the answer supports, partial support worth a half.",
                'vital = sum_{n in N_vital} s(n) / |N_vital|  (0 when N_vital is empty)')
STRICT_ALL = _nugget('strict_all', "The share of a topic's nuggets the answer fully supports.",
                     'strict_all = |{n in N : support}| / |N|')
STRICT_VITAL = _nugget('strict_vital', "The share of a topic's vital nuggets the answer fully supports.",
                       'strict_vital = |{n in N_vital : support}| / |N_vital|  (0 when N_vital is empty)')
SUPPORT_PRECISION = _support(
    'support_precision', 'The mean support of the citations of an answer: each (sentence, citation) pair judged.',
    'support_precision = sum_{(s, c)} w(s, c) / |{(s, c)}|', 'w = 1 for full_support, 0.5 for partial_support, 0 '
    'for no_support; an answer without citations scores 0. irmetrics\' reading of the weighted precision of Thakur '
    'et al.: the mean weight over every (sentence, citation) pair of the answer.')
SUPPORT_RECALL = _support(
    'support_recall', 'The mean support of the sentences of an answer, a sentence as supported as its best-supported '
    'citation (a sentence without citations: 0).', 'support_recall = sum_{s} max_{c of s} w(s, c) / |{s}|',
    'w as for support_precision; irmetrics takes the best citation of a sentence as its support. An answer without '
    'sentences scores 0. irmetrics\' reading of the weighted recall of Thakur et al.: the mean over the sentences of '
    'the best citation\'s weight, a sentence without citations counting 0.')

#: The measures read from the assignments, and those read from the answers' support labels.
NUGGET_MEASURES = (ALL, VITAL, STRICT_ALL, STRICT_VITAL)
SUPPORT_MEASURES = (SUPPORT_PRECISION, SUPPORT_RECALL)


def parse_rag_measures(measures: str | Measure | Iterable[str | Measure]) -> list[Measure]:
    """The RAG measures named by ``measures``: a measure, a name, several names in one string (``'all vital'``)
    or a list of them; unknown names suggest the closest ones."""
    given = [measures] if isinstance(measures, (str, Measure)) else list(measures)
    words = [w for m in given for w in (split_measure_list(m) if isinstance(m, str) else [m])]
    if not words:
        raise MeasureError(f'no RAG measures given (measures: {", ".join(m.name for m in RAG_MEASURES.definitions())})')
    out = []
    for word in words:
        if isinstance(word, Measure) and RAG_MEASURES.lookup(word.name).definition is not word.definition:
            raise MeasureError(f'{word} is not a RAG measure')
        out.append(parse_measure(word, RAG_MEASURES))
    return list(dict.fromkeys(out))
